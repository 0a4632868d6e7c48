/**
 * The vote round's orchestration (lib/votes/cast.ts) with the store replaced by an in-memory double:
 * which reads it makes, what it writes, and what it answers for each outcome of the transaction
 * (committed, a concurrent duplicate, vanished ideas, a moved ballot). The integration tests run the
 * same code against DynamoDB Local; these pin the decisions without it (the mutation run).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '#lib/auth/caller';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { BallotItem } from '#lib/store/ballots/ballots';
import type { UserItem } from '#lib/store/users/users';
import { voteIdOf } from '#lib/votes/ids';

const store = vi.hoisted(() => ({
  ballot: undefined as BallotItem | undefined,
  idempotency: undefined as { requestHash: string; response: unknown } | undefined,
  ideas: [] as Array<{ id: number; budget?: number | null; theme?: string | null; gone?: boolean }>,
  outcomes: [] as Array<Record<string, unknown>>,
  commits: [] as Array<Record<string, unknown> & { seal?: { hash: string; entry: Record<string, unknown> } }>,
  reads: [] as number[][],
}));

const tallyOf = (idea: { id: number; budget?: number | null; theme?: string | null; gone?: boolean }) => ({
  ideaId: idea.id,
  tally: {},
  budget: idea.budget ?? null,
  theme: idea.theme ?? null,
  gone: idea.gone === true,
});
vi.mock('#lib/store/ballots/rounds', () => ({
  roundReadPlan: vi.fn(),
  readRoundStart: vi.fn(async () => ({ ballot: store.ballot, stored: store.idempotency })),
  commitRound: vi.fn(async (write: Record<string, unknown>) => {
    store.commits.push(write);
    return store.outcomes.shift() ?? { kind: 'committed' };
  }),
}));
// Every read of tallies: the round's ideas (after the checks), then, when merge limits need them, held ones.
vi.mock('#lib/store/ideas/tallies', () => ({
  readIdeaTallies: vi.fn(async (_site: number, ids: number[]) => {
    store.reads.push(ids);
    return new Map(store.ideas.filter((i) => ids.includes(i.id)).map((i) => [i.id, tallyOf(i)]));
  }),
}));
vi.mock('#lib/votes/remove-votes', () => ({ removeLateVote: vi.fn(async () => undefined) }));
// No pause between attempts (the re-plan loop's jitter).
vi.mock('#lib/store/db/retry', () => ({ jitteredDelayMs: () => 0 }));
const { REPLAN_ATTEMPTS } = await import('#lib/store/db/replan');

const { castVotes } = await import('#lib/votes/cast');
const { roundHash } = await import('#lib/votes/idempotency');

const NOW = new Date('2026-01-01T00:00:00.000Z');
const voter: Caller = { kind: 'user', role: 'member', userId: 7, siteId: 1, user: {} as UserItem };
const siteWith = (votes: Record<string, unknown> = {}) => ({ id: 1, name: 's', config: withDefaults({ votes: { isActive: true, ...votes } }) }) as unknown as Site;
const cast = (site: Site, round: Array<{ ideaId: number; opinion: string }>, idempotencyKey?: string) =>
  castVotes({ site, caller: voter, round, idempotencyKey, clock: () => NOW });

beforeEach(() => {
  Object.assign(store, { ballot: undefined, idempotency: undefined, ideas: [{ id: 1 }, { id: 2 }, { id: 3 }], outcomes: [], commits: [], reads: [] });
});

describe('castVotes', () => {
  it('a first round: ids from the ballot sequence, one read, one commit with the ballot, tallies and seal; the records back', async () => {
    const sealedAfter = new Date().toISOString();
    const result = await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 2, opinion: 'yes' }, { ideaId: 1, opinion: 'yes' }]);
    expect(result.replayed).toBe(false);
    const receipt = store.commits[0]?.seal?.hash;
    expect(receipt).toMatch(/^[0-9a-f]{64}$/);
    expect(result.records).toEqual([
      { id: voteIdOf(7, 2), ideaId: 1, userId: 7, opinion: 'yes', createdAt: NOW.toISOString(), receipt },
      { id: voteIdOf(7, 1), ideaId: 2, userId: 7, opinion: 'yes', createdAt: NOW.toISOString(), receipt },
    ]);
    expect(store.reads).toEqual([[2, 1]]);
    expect(store.commits).toHaveLength(1);
    const write = store.commits[0]!;
    expect(write).toMatchObject({ siteId: 1, userId: 7, readVersion: undefined, voteSeq: 2 });
    // The entry the round appends: version 1, the first of its chain, the whole vote set.
    expect(write.seal!.entry).toMatchObject({ siteId: 1, userId: 7, version: 1, prevMac: '0'.repeat(64), votes: [[1, 'yes'], [2, 'yes']], mac: receipt });
    // Stamped with the wall clock as it is sealed, not the round's clock (lib/votes/seal.ts).
    expect(String(write.seal!.entry.writtenAt) >= sealedAfter).toBe(true);
    expect(write.idempotency).toBeUndefined();
    expect(write.changes).toEqual([
      { ideaId: 2, change: { yes: 1 }, addsVotes: true },
      { ideaId: 1, change: { yes: 1 }, addsVotes: true },
    ]);
  });

  it('a later round numbers its votes on from the ballot sequence; a removed vote is a change that adds nothing', async () => {
    store.ballot = { siteId: 1, userId: 7, version: 3, updatedAt: 'x', voteSeq: 5, votes: { '1': { id: 1_000_007_000_005, opinion: 'yes', createdAt: 'then' } } };
    const result = await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 3, opinion: 'yes' }]);
    expect(result.records).toEqual([{ id: voteIdOf(7, 6), ideaId: 3, userId: 7, opinion: 'yes', createdAt: NOW.toISOString(), receipt: store.commits[0]!.seal!.hash }]);
    expect(store.commits[0]).toMatchObject({ readVersion: 3, voteSeq: 6 });
    expect(store.commits[0]!.changes).toEqual([
      { ideaId: 3, change: { yes: 1 }, addsVotes: true },
      { ideaId: 1, change: { yes: -1 }, addsVotes: false },
    ]);
  });

  it('a round that changes nothing writes nothing and answers the held votes', async () => {
    store.ballot = { siteId: 1, userId: 7, version: 3, updatedAt: NOW.toISOString(), votes: { '1': { id: 5, opinion: 'yes', createdAt: 'then' } } };
    const result = await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }]);
    expect(result).toEqual({ records: [{ id: 5, ideaId: 1, userId: 7, opinion: 'yes', createdAt: 'then' }], replayed: false });
    expect(store.commits).toHaveLength(0);
  });

  it('with an Idempotency-Key the answer is stored in the same commit, even when nothing changes', async () => {
    store.ballot = { siteId: 1, userId: 7, version: 3, updatedAt: NOW.toISOString(), votes: { '1': { id: 5, opinion: 'yes', createdAt: 'then' } } };
    await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }], 'key-1');
    expect(store.commits).toHaveLength(1);
    expect(store.commits[0]).toMatchObject({ readVersion: 3, votes: undefined, seal: undefined, idempotency: { scope: 'vote#7', key: 'key-1', ttlSeconds: 86_400 } });
    expect((store.commits[0]!.idempotency as { record: { requestHash: string } }).record.requestHash).toBe(roundHash([{ ideaId: 1, opinion: 'yes' }]));
  });

  it('a stored answer under the key is replayed (before the open/closed check); another round under it is a 409', async () => {
    const round = [{ ideaId: 1, opinion: 'yes' }];
    store.idempotency = { requestHash: roundHash(round), response: { '1': { id: 9, opinion: 'yes', createdAt: 'then' } } };
    const closed = siteWith({ isActive: false });
    expect(await cast(closed, round, 'k')).toEqual({ records: [{ id: 9, ideaId: 1, userId: 7, opinion: 'yes', createdAt: 'then' }], replayed: true });
    await expect(cast(closed, [{ ideaId: 2, opinion: 'yes' }], 'k')).rejects.toMatchObject({ status: 409, message: 'This Idempotency-Key was already used for a different vote round' });
    store.idempotency = { requestHash: roundHash(round), response: 'broken' };
    await expect(cast(closed, round, 'k')).rejects.toThrow('Stored vote answer has an unexpected shape');
    expect(store.commits).toHaveLength(0);
  });

  it('voting closed: 403 without a read of the ideas or a write', async () => {
    await expect(cast(siteWith({ isActive: false }), [{ ideaId: 1, opinion: 'yes' }])).rejects.toMatchObject({ status: 403 });
    expect(store.reads).toEqual([]);
    expect(store.commits).toHaveLength(0);
  });

  it('a moved ballot re-plans from a new read; past the attempts it is a 409 asking to retry', async () => {
    store.outcomes = [{ kind: 'ballot-changed' }, { kind: 'committed' }];
    await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }]);
    expect(store.commits).toHaveLength(2);
    expect(store.reads).toEqual([[1], [1]]);
    store.commits = [];
    store.outcomes = Array.from({ length: REPLAN_ATTEMPTS }, () => ({ kind: 'contended' }));
    await expect(cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }])).rejects.toMatchObject({
      status: 409,
      message: 'Your vote could not be stored because of many simultaneous changes; please retry',
    });
    expect(store.commits).toHaveLength(REPLAN_ATTEMPTS);
  });

  it('ideas deleted meanwhile: a 400 naming their entries', async () => {
    store.outcomes = [{ kind: 'ideas-gone', ideaIds: [2] }];
    await expect(cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }, { ideaId: 2, opinion: 'yes' }])).rejects.toMatchObject({
      status: 400,
      details: [{ path: '[1].ideaId', message: 'Idea 2 does not exist on this site' }],
    });
  });

  it('a concurrent duplicate under the same key won: the next read finds and returns its stored answer', async () => {
    const round = [{ ideaId: 1, opinion: 'yes' }];
    const { commitRound } = await import('#lib/store/ballots/rounds');
    vi.mocked(commitRound).mockImplementationOnce(async (write) => {
      store.commits.push(write as never);
      store.idempotency = { requestHash: roundHash(round), response: { '1': { id: 42, opinion: 'yes', createdAt: 'then' } } };
      return { kind: 'duplicate' };
    });
    expect(await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), round, 'k')).toEqual({
      records: [{ id: 42, ideaId: 1, userId: 7, opinion: 'yes', createdAt: 'then' }],
      replayed: true,
    });
    // The first attempt read the round's ideas; the second found the stored answer first and read none.
    expect(store.reads).toEqual([[1]]);
  });

  it('budget and theme come from the tally items; held votes use their copies, else are read, only when merge limits need them', async () => {
    store.ideas = [{ id: 1, budget: 300, theme: 'a' }, { id: 2, budget: 800, theme: 'a' }, { id: 3, budget: 100, theme: null }];
    await expect(cast(siteWith({ voteType: 'budgeting', withExisting: 'replace', maxBudget: 1000 }), [{ ideaId: 1, opinion: 'yes' }, { ideaId: 2, opinion: 'yes' }])).rejects.toMatchObject({ status: 400 });
    // A held vote without copies (cast before they were kept): its tally is read.
    store.ballot = { siteId: 1, userId: 7, version: 1, updatedAt: 'x', votes: { '2': { id: 5, opinion: 'yes', createdAt: 'then' } } };
    await expect(cast(siteWith({ voteType: 'budgeting', withExisting: 'merge', maxBudget: 1000 }), [{ ideaId: 1, opinion: 'yes' }])).rejects.toMatchObject({ status: 400 });
    expect(store.reads.slice(-2)).toEqual([[1], [2]]);
    // With copies: no read, and the copies count (800 + 300 > 1000).
    store.reads = [];
    store.ballot = { siteId: 1, userId: 7, version: 1, updatedAt: 'x', votes: { '2': { id: 5, opinion: 'yes', createdAt: 'then', budget: 800, theme: 'a' } } };
    await expect(cast(siteWith({ voteType: 'budgeting', withExisting: 'merge', maxBudget: 1000 }), [{ ideaId: 1, opinion: 'yes' }])).rejects.toMatchObject({ status: 400 });
    expect(store.reads).toEqual([[1]]);
    await cast(siteWith({ voteType: 'budgeting', withExisting: 'merge', maxBudget: 1000 }), [{ ideaId: 3, opinion: 'yes' }]);
    // The new vote keeps the copies of its idea; the held one keeps its own.
    expect(store.commits.at(-1)!.votes).toMatchObject({ '2': { budget: 800, theme: 'a' }, '3': { budget: 100, theme: null } });
    store.reads = [];
    await cast(siteWith({ voteType: 'count', withExisting: 'merge' }), [{ ideaId: 1, opinion: 'yes' }]);
    expect(store.reads).toEqual([[1]]);
  });

  it('a large round whose idea was deleted as it committed takes that vote out again and answers without it', async () => {
    const { removeLateVote } = await import('#lib/votes/remove-votes');
    store.outcomes = [{ kind: 'committed', lateGone: [2] }];
    const result = await cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }, { ideaId: 2, opinion: 'yes' }]);
    expect(result.records.map((r) => r.ideaId)).toEqual([1]);
    expect(vi.mocked(removeLateVote)).toHaveBeenCalledWith(1, 7, 2);
  });

  it('a ballot that would pass the item limit is a 400 asking to remove votes, nothing sent', async () => {
    store.outcomes = [{ kind: 'ballot-too-large' }];
    await expect(cast(siteWith({ voteType: 'likes' }), [{ ideaId: 1, opinion: 'yes' }])).rejects.toMatchObject({
      status: 400,
      message: 'You hold 1 votes on this site, more than one ballot can keep; remove some before adding more',
    });
    expect(store.commits).toHaveLength(1);
  });

  it('a gone idea is no idea: 400', async () => {
    store.ideas = [{ id: 1, gone: true }];
    await expect(cast(siteWith({ voteType: 'count', withExisting: 'replace' }), [{ ideaId: 1, opinion: 'yes' }])).rejects.toMatchObject({ status: 400 });
    expect(store.commits).toHaveLength(0);
  });
});
