/**
 * `npm run verify-votes` holding the stored results snapshot to the log (lib/results/verify-snapshot.ts
 * `verifyResultsSnapshot`, the store as a double): no snapshot is a note; a missing chunk, an unreadable
 * body, a head whose ballot count disagrees with its body are problems; a snapshot the log has moved on
 * from is a note saying how many entries are newer; and how the report reads (lib/results/verify.ts).
 */
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { packSnapshot } from '#lib/results/snapshot';
import type { ResultsHead } from '#lib/store/results/snapshots';
import type { SealedEntry } from '#lib/vote-record/entry';

const store = vi.hoisted(() => ({ head: undefined as ResultsHead | undefined, chunks: undefined as Uint8Array[] | undefined }));
vi.mock('#lib/store/results/snapshots', () => ({
  getResultsHead: vi.fn(async () => store.head),
  readResultsBody: vi.fn(async () => store.chunks),
}));

const { verifyResultsSnapshot } = await import('#lib/results/verify-snapshot');
const { formatVerifyReport } = await import('#lib/results/verify');

const entry = (userId: number, writtenAt: string, ideaIds: number[]): SealedEntry => ({
  siteId: 1,
  userId,
  version: 1,
  prevMac: '0'.repeat(64),
  votes: ideaIds.map((ideaId) => ({ ideaId, opinion: 'yes' })),
  writtenAt,
  mac: `${userId}`.padStart(64, '0'),
});
const computedAt = '2026-01-01T10:01:00.000Z';
const body = (ballots: number, yes: number) => ({ computedAt, ballots, ideas: [{ id: 7, title: 'idea 7', yes, no: 0, rank: 1 }] });
const headOf = (ballots: number, coveredUntil: string | null = '2026-01-01T10:00:00.000Z'): ResultsHead => ({
  siteId: 1,
  etag: '"e"',
  computedAt,
  coveredUntil,
  ballots,
  generation: 'g',
  chunks: 0,
});
const entries = [entry(1, '2026-01-01T09:00:00.000Z', [7]), entry(2, '2026-01-01T09:30:00.000Z', [7])];

beforeEach(() => {
  store.head = headOf(2);
  store.chunks = packSnapshot(body(2, 2)).chunks;
});

describe('checking the stored results snapshot', () => {
  it('notes that there is none yet', async () => {
    store.head = undefined;
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: [], notes: ['no results snapshot yet'] });
  });

  it('matches a snapshot equal to the log', async () => {
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: [], notes: [`the results snapshot of ${computedAt} matches the log`] });
  });

  it('is a problem when a chunk is missing or the body cannot be read', async () => {
    store.chunks = undefined;
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: ['the results snapshot has a chunk missing'], notes: [] });
    store.chunks = [gzipSync(Buffer.from('{not json'))];
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: ['the results snapshot cannot be read'], notes: [] });
    store.chunks = [Buffer.from('not gzip')];
    expect(await verifyResultsSnapshot(1, entries)).toEqual({ problems: ['the results snapshot cannot be read'], notes: [] });
  });

  it("is a problem when the head's ballot count is not its body's", async () => {
    store.head = headOf(3);
    expect((await verifyResultsSnapshot(1, entries)).problems).toEqual(["the results snapshot's head says 3 ballot(s), its body 2"]);
  });

  it('notes how many entries were written since it was computed, one or more', async () => {
    const one = [...entries, entry(3, '2026-01-01T11:00:00.000Z', [7])];
    expect((await verifyResultsSnapshot(1, one)).notes).toContain('the results snapshot is stale: 1 entry written since it was computed');
    const two = [...one, entry(4, '2026-01-01T11:00:01.000Z', [7])];
    expect((await verifyResultsSnapshot(1, two)).notes).toContain('the results snapshot is stale: 2 entries written since it was computed');
    const atTheSameInstant = [...entries, entry(3, computedAt, [7])];
    expect((await verifyResultsSnapshot(1, atTheSameInstant)).notes.join()).not.toMatch(/stale/);
  });

  it('allows the rounds of the settle time before the snapshot, taken from the head or, without it, a minute', async () => {
    const settling = [entry(1, '2026-01-01T09:00:00.000Z', [7]), entry(2, '2026-01-01T10:00:30.000Z', [7])];
    store.chunks = packSnapshot(body(1, 1)).chunks;
    store.head = headOf(1);
    expect(await verifyResultsSnapshot(1, settling)).toEqual({ problems: [], notes: [expect.stringMatching(/within what the log allows/)] });
    store.head = headOf(1, null);
    expect(await verifyResultsSnapshot(1, settling)).toEqual({ problems: [], notes: [expect.stringMatching(/within what the log allows/)] });
    store.head = headOf(1, '2026-01-01T10:00:45.000Z');
    expect((await verifyResultsSnapshot(1, settling)).problems).toEqual([
      expect.stringMatching(/ballot count is 1, the log gives 2$/),
      expect.stringMatching(/idea 7 'yes' is 1, the log gives 2$/),
    ]);
  });
});

describe('the verification report', () => {
  it('says OK when everything agrees, and lists the problems otherwise', () => {
    const report = { siteId: 3, ballots: 5, problems: [], checkpoint: 'checkpoint 2 holds 5 entries of 5 ballot(s), signed by abc' };
    expect(formatVerifyReport(report)).toBe(
      'site 3: 5 ballot(s); checkpoint 2 holds 5 entries of 5 ballot(s), signed by abc\nOK: the vote log, its checkpoints, the ballots and the tallies agree',
    );
    expect(formatVerifyReport({ ...report, problems: ['a', 'b'] })).toBe('site 3: 5 ballot(s); checkpoint 2 holds 5 entries of 5 ballot(s), signed by abc\n2 problem(s):\n  - a\n  - b');
  });
});
