/**
 * The results snapshot held to the log's entries: exact as of its computation, bounded by the rounds
 * that were still committing in the settle minute before it, and a problem outside those bounds.
 */
import { describe, expect, it } from 'vitest';
import type { SealedEntry } from '#lib/vote-record/entry';
import { checkSnapshotCounts } from '#lib/results/verify-snapshot';

const entry = (userId: number, version: number, writtenAt: string, ideaIds: number[]): SealedEntry => ({
  siteId: 1,
  userId,
  version,
  prevMac: '0'.repeat(64),
  votes: ideaIds.map((ideaId) => ({ ideaId, opinion: 'yes' })),
  writtenAt,
  mac: `${userId}${version}`.padStart(64, '0'),
});
const idea = (id: number, yes: number) => ({ id, title: `idea ${id}`, yes, no: 0, rank: 1 });
const computedAt = '2026-01-01T10:01:00.000Z';
const coveredUntil = '2026-01-01T10:00:00.000Z';

describe('a results snapshot against the log', () => {
  const entries = [entry(1, 1, '2026-01-01T09:00:00.000Z', [7]), entry(2, 1, '2026-01-01T09:30:00.000Z', [7, 8]), entry(2, 2, '2026-01-01T10:00:30.000Z', [8])];

  it('equal to the log at computedAt: matches', () => {
    expect(checkSnapshotCounts({ computedAt, ballots: 2, ideas: [idea(7, 1), idea(8, 1)] }, coveredUntil, entries)).toEqual({ problems: [], notes: [expect.stringMatching(/matches the log/)] });
  });

  it('read before a round of the settle minute had committed: within the bounds, a note', () => {
    expect(checkSnapshotCounts({ computedAt, ballots: 2, ideas: [idea(7, 2), idea(8, 1)] }, coveredUntil, entries)).toEqual({ problems: [], notes: [expect.stringMatching(/within what the log allows/)] });
  });

  it('a count no ordering of the rounds gives: a problem naming the idea and the range', () => {
    const { problems } = checkSnapshotCounts({ computedAt, ballots: 2, ideas: [idea(7, 3), idea(8, 1)] }, coveredUntil, entries);
    expect(problems).toEqual([expect.stringMatching(/idea 7 'yes' is 3, the log gives 1 to 2/)]);
  });

  it('a vote for an idea nobody voted for, or another ballot count: problems', () => {
    const { problems } = checkSnapshotCounts({ computedAt, ballots: 5, ideas: [idea(7, 1), idea(8, 1), idea(9, 1)] }, coveredUntil, entries);
    expect(problems).toEqual([expect.stringMatching(/ballot count is 5, the log gives 2$/), expect.stringMatching(/idea 9 'yes' is 1, the log gives 0$/)]);
  });

  it('entries after computedAt do not count', () => {
    const later = [...entries, entry(3, 1, '2026-01-01T11:00:00.000Z', [7])];
    expect(checkSnapshotCounts({ computedAt, ballots: 2, ideas: [idea(7, 1), idea(8, 1)] }, coveredUntil, later).problems).toEqual([]);
  });
});
