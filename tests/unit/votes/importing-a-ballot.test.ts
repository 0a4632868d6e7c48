/**
 * A user's vote set from an OpenStad import written as one vote round (lib/votes/import-ballot.ts),
 * with the store replaced by an in-memory double: what is committed (ids, seal, tallies), when nothing
 * is, and what each outcome of the transaction answers. The integration tests run the same code against
 * DynamoDB Local; these pin the decisions without it (the mutation run).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { roundStore as store } from '#tests/support/ballot-writes-in-memory';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { GENESIS_MAC, macIsValid } from '#lib/vote-record/entry';
import { sealedOf } from '#lib/vote-record/entry-item';
import { voteChainKey } from '#lib/vote-record/keys';
import { voteIdOf } from '#lib/votes/ids';

vi.mock('#lib/store/ballots/rounds', async () => (await import('#tests/support/ballot-writes-in-memory')).roundsDouble);
// No pause between attempts (the re-plan loop's jitter).
vi.mock('#lib/store/db/retry', async (importOriginal) => ({ ...(await importOriginal<object>()), jitteredDelayMs: () => 0 }));
const { REPLAN_ATTEMPTS } = await import('#lib/store/db/replan');
const { importBallot } = await import('#lib/votes/import-ballot');

const NOW = new Date('2026-03-04T05:06:07.000Z');
const USER = 12;
const imported = [
  { ideaId: 30, opinion: 'no', createdAt: '2021-05-01T10:00:00.000Z' },
  { ideaId: 4, opinion: 'yes', createdAt: '2021-05-02T10:00:00.000Z' },
];
const held = (votes: Record<string, string>): BallotItem => ({
  siteId: 1,
  userId: USER,
  version: 2,
  updatedAt: '2026-01-01T00:00:00.000Z',
  votes: Object.fromEntries(Object.entries(votes).map(([ideaId, opinion], i) => [ideaId, { id: i + 1, opinion, createdAt: '2026-01-01T00:00:00.000Z' }])),
});
const run = (votes = imported, userId = USER) => importBallot(1, userId, votes, NOW);

beforeEach(() => {
  Object.assign(store, { ballot: undefined, outcomes: [], reads: [], commits: [], onCommit: undefined });
});

describe('importBallot', () => {
  it('a user without a ballot: one round, version 1, ids from the vote sequence in import order, each vote counted', async () => {
    const sealedAfter = new Date().toISOString();
    expect(await run()).toEqual({ kind: 'written' });
    expect(store.reads).toEqual([[1, USER, undefined, NOW]]);
    expect(store.commits).toHaveLength(1);
    const write = store.commits[0]!;
    expect(write).toMatchObject({ siteId: 1, userId: USER, readVersion: undefined, voteSeq: 2, now: NOW });
    expect(write.votes).toEqual({
      '30': { id: voteIdOf(USER, 1), opinion: 'no', createdAt: '2021-05-01T10:00:00.000Z' },
      '4': { id: voteIdOf(USER, 2), opinion: 'yes', createdAt: '2021-05-02T10:00:00.000Z' },
    });
    expect(write.changes).toEqual([
      { ideaId: 30, change: { no: 1 }, addsVotes: true },
      { ideaId: 4, change: { yes: 1 }, addsVotes: true },
    ]);
    // The first entry of the ballot's chain, holding the whole vote set by idea id.
    const { entry, hash, prevHash } = write.seal;
    expect(entry).toMatchObject({ siteId: 1, userId: USER, version: 1, prevMac: GENESIS_MAC, votes: [[4, 'yes'], [30, 'no']], mac: hash });
    expect(entry.rejected).toBeUndefined();
    expect(prevHash).toBe(GENESIS_MAC);
    expect(entry.writtenAt >= sealedAfter).toBe(true);
    expect(macIsValid(voteChainKey(), sealedOf(entry))).toBe(true);
  });

  it('a ballot already holding exactly these votes (in any order, at any time): unchanged, nothing written', async () => {
    store.ballot = held({ '4': 'yes', '30': 'no' });
    expect(await run()).toEqual({ kind: 'unchanged' });
    expect(store.commits).toEqual([]);
  });

  it('a ballot holding other votes is never overwritten: differs', async () => {
    const others: Array<Record<string, string>> = [{ '4': 'yes', '30': 'yes' }, { '4': 'yes' }, { '4': 'yes', '30': 'no', '31': 'yes' }, { '4': 'yes', '31': 'no' }, {}];
    for (const votes of others) {
      store.ballot = held(votes);
      expect(await run()).toEqual({ kind: 'differs' });
    }
    expect(store.commits).toEqual([]);
  });

  it('an idea gone since: the outcome names it, nothing retried', async () => {
    store.outcomes = [{ kind: 'ideas-gone', ideaIds: [30] }];
    expect(await run()).toEqual({ kind: 'ideas-gone', ideaIds: [30] });
    expect(store.commits).toHaveLength(1);
  });

  it('more votes than one ballot holds: an error naming the user, not retried', async () => {
    store.outcomes = [{ kind: 'ballot-too-large' }];
    await expect(run()).rejects.toThrow(`the 2 votes of user ${USER} do not fit in one ballot`);
    expect(store.commits).toHaveLength(1);
  });

  it('a ballot written meanwhile: read again, and left alone when it holds the same votes', async () => {
    store.outcomes = [{ kind: 'ballot-changed' }];
    store.onCommit = () => {
      store.ballot = held({ '4': 'yes', '30': 'no' });
    };
    expect(await run()).toEqual({ kind: 'unchanged' });
    expect(store.reads).toHaveLength(2);
    expect(store.commits).toHaveLength(1);
  });

  it('contended: written on the next attempt', async () => {
    store.outcomes = [{ kind: 'contended' }];
    expect(await run()).toEqual({ kind: 'written' });
    expect(store.commits).toHaveLength(2);
    expect(store.commits[1]!.voteSeq).toBe(2);
  });

  it('a ballot that keeps moving: up to the cap, then an error naming the user and site', async () => {
    store.outcomes = Array.from({ length: REPLAN_ATTEMPTS }, (_, i) => ({ kind: i % 2 === 0 ? 'contended' : 'ballot-changed' }));
    await expect(run()).rejects.toThrow(`the ballot of user ${USER} on site 1 kept changing while it was imported`);
    expect(store.commits).toHaveLength(REPLAN_ATTEMPTS);
  });

  it('a user id no vote id can hold: a 409, nothing written', async () => {
    await expect(run(imported, 0)).rejects.toMatchObject({ status: 409, message: 'This user id is beyond the range vote ids can hold' });
    expect(store.commits).toEqual([]);
  });
});
