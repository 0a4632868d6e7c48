/**
 * A moderator's decision on a vote (lib/votes/review.ts) with the store replaced by an in-memory double:
 * who may decide, which votes a decision covers, what is committed (the ballot's next version, its
 * seal, the tally changes) and what each outcome of the transaction answers. The integration tests run
 * the same code against DynamoDB Local; these pin the decisions without it (the mutation run).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { roundStore as store } from '#tests/support/ballot-writes-in-memory';
import { NOBODY, type Caller } from '#lib/auth/caller';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { BallotItem, BallotVote } from '#lib/store/ballots/ballots';
import type { UserItem } from '#lib/store/users/users';
import { GENESIS_MAC, macIsValid } from '#lib/vote-record/entry';
import { sealedOf } from '#lib/vote-record/entry-item';
import { voteChainKey } from '#lib/vote-record/keys';
import { FIRST_COUNTERLESS_VOTE_ID, voteIdOf } from '#lib/votes/ids';
import { VOTE_TYPE_NAMES, voteTypeRules, type VoteType } from '#schemas/vote-types';

vi.mock('#lib/store/ballots/rounds', async () => (await import('#tests/support/ballot-writes-in-memory')).roundsDouble);
/** What the decisions asked of the site's jobs: `[siteId, job, dueAt]`. */
const dues = vi.hoisted(() => [] as unknown[][]);
vi.mock('#lib/store/jobs/jobs', () => ({ makeJobDueBy: vi.fn(async (...args: unknown[]) => void dues.push(args)) }));
// No pause between attempts (the re-plan loop's jitter).
vi.mock('#lib/store/db/retry', async (importOriginal) => ({ ...(await importOriginal<object>()), jitteredDelayMs: () => 0 }));
const { REPLAN_ATTEMPTS } = await import('#lib/store/db/replan');
const { reviewVote } = await import('#lib/votes/review');

const NOW = new Date('2026-02-03T04:05:06.789Z');
const LATER = new Date('2026-02-03T05:00:00.000Z');
const VOTER = 7;
const PREVIOUS_MAC = 'ab'.repeat(32);
const id = (n: number) => voteIdOf(VOTER, n);

const moderator: Caller = { kind: 'user', role: 'moderator', userId: 99, siteId: 1, user: {} as UserItem };
const admin: Caller = { kind: 'user', role: 'admin', userId: 98, siteId: 1, user: {} as UserItem };
const member: Caller = { kind: 'user', role: 'member', userId: VOTER, siteId: 1, user: {} as UserItem };
const service: Caller = { kind: 'service', role: 'admin', userId: undefined };

const siteOf = (voteType: VoteType) => ({ id: 1, name: 's', config: withDefaults({ votes: { voteType } }) }) as unknown as Site;
const likes = siteOf('likes');
const count = siteOf('count');
/** Every vote type whose round makes one ballot (all but likes). */
const BALLOT_TYPES = VOTE_TYPE_NAMES.filter((type) => voteTypeRules(type).round === 'ballot');

const vote = (n: number, opinion = 'yes', review?: BallotVote['review']): BallotVote => ({
  id: id(n),
  opinion,
  createdAt: `2026-01-0${n}T00:00:00.000Z`,
  ...(review ? { review } : {}),
});
const ballotOf = (votes: Record<string, BallotVote>, version = 4): BallotItem => ({
  siteId: 1,
  userId: VOTER,
  version,
  updatedAt: '2026-01-09T00:00:00.000Z',
  hash: PREVIOUS_MAC,
  voteSeq: 3,
  votes,
});
const earlierRejection = { rejected: true, by: 50, at: '2026-01-20T00:00:00.000Z' };

const review = (site: Site, voteId: number, rejected: boolean | undefined, caller: Caller = moderator) =>
  reviewVote({ site, caller, voteId, rejected, clock: () => NOW });

beforeEach(() => {
  Object.assign(store, { ballot: undefined, outcomes: [], reads: [], commits: [], onCommit: undefined });
  dues.length = 0;
});

describe('who may decide', () => {
  it('no token: 401; a member, the voter included: 403; nothing read', async () => {
    store.ballot = ballotOf({ '10': vote(1) });
    await expect(review(likes, id(1), true, NOBODY)).rejects.toMatchObject({ status: 401 });
    await expect(review(likes, id(1), true, member)).rejects.toMatchObject({ status: 403, message: 'Only moderators may reject or reinstate a vote' });
    expect(store.reads).toEqual([]);
    expect(store.commits).toEqual([]);
  });

  it('a moderator and an admin decide as themselves; a service token as nobody in particular (by: null)', async () => {
    for (const [caller, by] of [
      [moderator, 99],
      [admin, 98],
      [service, null],
    ] as const) {
      store.ballot = ballotOf({ '10': vote(1) });
      store.commits = [];
      await review(likes, id(1), true, caller);
      expect(store.commits[0]!.votes['10']!.review).toEqual({ rejected: true, by, at: NOW.toISOString() });
      expect(store.commits[0]!.seal.entry.rejected).toEqual([[10, 'yes', by]]);
    }
  });
});

describe('which vote', () => {
  it('an id no vote id scheme made: 404 without a read', async () => {
    for (const voteId of [1, 123_456, FIRST_COUNTERLESS_VOTE_ID - 1]) {
      await expect(review(likes, voteId, true)).rejects.toMatchObject({ status: 404, message: `Vote ${voteId} not found on site 1` });
    }
    expect(store.reads).toEqual([]);
  });

  it('the ballot of the voter the id names is read (consistently, at the clock); no ballot, or none holding the id: 404, nothing written', async () => {
    await expect(review(likes, id(1), true)).rejects.toMatchObject({ status: 404, message: `Vote ${id(1)} not found on site 1` });
    expect(store.reads).toEqual([[1, VOTER, undefined, NOW]]);
    store.ballot = ballotOf({ '10': vote(1), '11': vote(2) });
    await expect(review(likes, id(3), true)).rejects.toMatchObject({ status: 404, message: `Vote ${id(3)} not found on site 1` });
    // Another user's vote id reads that user's ballot, not this one.
    store.reads = [];
    await expect(review(likes, voteIdOf(8, 1), true)).rejects.toMatchObject({ status: 404 });
    expect(store.reads[0]!.slice(0, 2)).toEqual([1, 8]);
    expect(store.commits).toEqual([]);
  });
});

describe('rejecting', () => {
  it('a like: the one vote, its count taken off, the next version committed and sealed; the record as moderators see it', async () => {
    store.ballot = ballotOf({ '10': vote(1), '11': vote(2, 'no') });
    const sealedAfter = new Date().toISOString();
    const record = await review(likes, id(2), true);
    expect(record).toEqual({ id: id(2), ideaId: 11, userId: VOTER, opinion: 'no', createdAt: vote(2).createdAt, rejected: true, reviewedAt: NOW.toISOString() });

    expect(store.commits).toHaveLength(1);
    const write = store.commits[0]!;
    expect(write).toMatchObject({ siteId: 1, userId: VOTER, readVersion: 4, voteSeq: 3, now: NOW });
    expect(write.votes).toEqual({ '10': vote(1), '11': vote(2, 'no', { rejected: true, by: 99, at: NOW.toISOString() }) });
    expect(write.changes).toEqual([{ ideaId: 11, change: { no: -1 }, addsVotes: false }]);

    // The seal: version 5 chained to the ballot's mac, the vote that counts apart from the rejected one.
    const { entry, hash, prevHash } = write.seal;
    expect(entry).toMatchObject({ siteId: 1, userId: VOTER, version: 5, prevMac: PREVIOUS_MAC, votes: [[10, 'yes']], rejected: [[11, 'no', 99]], mac: hash });
    expect(prevHash).toBe(PREVIOUS_MAC);
    expect(entry.writtenAt >= sealedAfter).toBe(true);
    expect(macIsValid(voteChainKey(), sealedOf(entry))).toBe(true);
  });

  it.each(BALLOT_TYPES)('a %s ballot: the whole ballot, every count taken off', async (voteType) => {
    store.ballot = ballotOf({ '10': vote(1), '11': vote(2), '12': vote(3, 'no') });
    const record = await review(siteOf(voteType), id(1), true);
    expect(record).toMatchObject({ id: id(1), ideaId: 10, rejected: true, reviewedAt: NOW.toISOString() });
    const write = store.commits[0]!;
    const decision = { rejected: true, by: 99, at: NOW.toISOString() };
    expect(write.votes).toEqual({ '10': vote(1, 'yes', decision), '11': vote(2, 'yes', decision), '12': vote(3, 'no', decision) });
    expect(write.changes).toEqual([
      { ideaId: 10, change: { yes: -1 }, addsVotes: false },
      { ideaId: 11, change: { yes: -1 }, addsVotes: false },
      { ideaId: 12, change: { no: -1 }, addsVotes: false },
    ]);
    expect(write.seal.entry).toMatchObject({ votes: [], rejected: [[10, 'yes', 99], [11, 'yes', 99], [12, 'no', 99]] });
  });

  it('a ballot vote already rejected keeps its own decision and moves no count again', async () => {
    store.ballot = ballotOf({ '10': vote(1), '11': vote(2, 'yes', earlierRejection) });
    await review(count, id(1), true);
    const write = store.commits[0]!;
    expect(write.votes['11']!.review).toEqual(earlierRejection);
    expect(write.changes).toEqual([{ ideaId: 10, change: { yes: -1 }, addsVotes: false }]);
    expect(write.seal.entry.rejected).toEqual([[10, 'yes', 99], [11, 'yes', 50]]);
  });

  it('a ballot from before the vote log (its hash no mac) starts a chain of its own', async () => {
    store.ballot = { ...ballotOf({ '10': vote(1) }), hash: 'legacy' };
    await review(likes, id(1), true);
    expect(store.commits[0]!.seal.entry.prevMac).toBe(GENESIS_MAC);
  });
});

describe('reinstating', () => {
  it('a like: its count back, an add that needs its idea still there; the record no longer rejected', async () => {
    store.ballot = ballotOf({ '10': vote(1, 'yes', earlierRejection), '11': vote(2) });
    const record = await review(likes, id(1), false, service);
    expect(record).toEqual({ id: id(1), ideaId: 10, userId: VOTER, opinion: 'yes', createdAt: vote(1).createdAt, reviewedAt: NOW.toISOString() });
    const write = store.commits[0]!;
    expect(write.votes['10']!.review).toEqual({ rejected: false, by: null, at: NOW.toISOString() });
    expect(write.changes).toEqual([{ ideaId: 10, change: { yes: 1 }, addsVotes: true }]);
    expect(write.seal.entry).toMatchObject({ version: 5, votes: [[10, 'yes'], [11, 'yes']] });
    expect(write.seal.entry.rejected).toBeUndefined();
  });

  it('a ballot: every vote counts again', async () => {
    store.ballot = ballotOf({ '10': vote(1, 'yes', earlierRejection), '11': vote(2, 'no', earlierRejection) });
    await review(count, id(2), false);
    expect(store.commits[0]!.changes).toEqual([
      { ideaId: 10, change: { yes: 1 }, addsVotes: true },
      { ideaId: 11, change: { no: 1 }, addsVotes: true },
    ]);
    expect(store.commits[0]!.seal.entry).toMatchObject({ votes: [[10, 'yes'], [11, 'no']] });
  });
});

describe('nothing to write', () => {
  it('setting the state the vote already has writes nothing and answers it as it stands (a retried request ends where the first did)', async () => {
    store.ballot = ballotOf({ '10': vote(1, 'yes', earlierRejection), '11': vote(2) });
    expect(await review(likes, id(1), true)).toEqual({
      id: id(1),
      ideaId: 10,
      userId: VOTER,
      opinion: 'yes',
      createdAt: vote(1).createdAt,
      rejected: true,
      reviewedAt: earlierRejection.at,
    });
    expect(await review(likes, id(2), false)).toEqual({ id: id(2), ideaId: 11, userId: VOTER, opinion: 'yes', createdAt: vote(2).createdAt });
    expect(store.commits).toEqual([]);
    expect(dues).toEqual([]);
  });

  it('no state given: the vote as it stands, nothing written', async () => {
    store.ballot = ballotOf({ '10': vote(1) });
    expect(await review(count, id(1), undefined)).toEqual({ id: id(1), ideaId: 10, userId: VOTER, opinion: 'yes', createdAt: vote(1).createdAt });
    expect(store.commits).toEqual([]);
  });
});

describe('what the transaction answers', () => {
  it('the idea of a reinstated vote is being deleted: 409', async () => {
    store.ballot = ballotOf({ '10': vote(1, 'yes', earlierRejection) });
    store.outcomes = [{ kind: 'ideas-gone', ideaIds: [10] }];
    await expect(review(likes, id(1), false)).rejects.toMatchObject({ status: 409, message: `Vote ${id(1)} cannot be reinstated: its idea is being deleted` });
    expect(store.commits).toHaveLength(1);
  });

  it('the ballot would pass the item limit: 409, not retried', async () => {
    store.ballot = ballotOf({ '10': vote(1) });
    store.outcomes = [{ kind: 'ballot-too-large' }];
    await expect(review(likes, id(1), true)).rejects.toMatchObject({ status: 409, message: `The ballot holding vote ${id(1)} is too large to record this decision` });
    expect(store.commits).toHaveLength(1);
    expect(dues).toEqual([]);
  });

  it('the ballot moved meanwhile: decided again on what it holds now, at the clock of the new attempt', async () => {
    store.ballot = ballotOf({ '10': vote(1), '11': vote(2) });
    store.outcomes = [{ kind: 'ballot-changed' }];
    // The voter's round took back the vote on idea 11 as the decision was committed.
    store.onCommit = () => {
      store.ballot = ballotOf({ '10': vote(1) }, 5);
      store.onCommit = undefined;
    };
    const clocks = [NOW, LATER];
    const record = await reviewVote({ site: count, caller: moderator, voteId: id(1), rejected: true, clock: () => clocks.shift()! });
    expect(record).toMatchObject({ id: id(1), rejected: true, reviewedAt: LATER.toISOString() });
    expect(store.reads.map((args) => args[3])).toEqual([NOW, LATER]);
    expect(store.commits).toHaveLength(2);
    const again = store.commits[1]!;
    expect(again).toMatchObject({ readVersion: 5, now: LATER });
    expect(Object.keys(again.votes)).toEqual(['10']);
    expect(again.changes).toEqual([{ ideaId: 10, change: { yes: -1 }, addsVotes: false }]);
    expect(again.seal.entry.version).toBe(6);
    // The committed decision's entry makes the site's checkpoints due a settle minute after it (once).
    expect(dues).toEqual([[1, 'vote-checkpoints', new Date(LATER.getTime() + 60_000).toISOString()]]);
  });

  it('another moderator made the same decision meanwhile: the next attempt writes nothing', async () => {
    store.ballot = ballotOf({ '10': vote(1) });
    store.outcomes = [{ kind: 'contended' }];
    store.onCommit = () => {
      store.ballot = ballotOf({ '10': vote(1, 'yes', earlierRejection) }, 5);
      store.onCommit = undefined;
    };
    expect(await review(likes, id(1), true)).toMatchObject({ rejected: true, reviewedAt: earlierRejection.at });
    expect(store.commits).toHaveLength(1);
    expect(store.reads).toHaveLength(2);
  });

  it('the voter took the vote back meanwhile: 404', async () => {
    store.ballot = ballotOf({ '10': vote(1), '11': vote(2) });
    store.outcomes = [{ kind: 'ballot-changed' }];
    store.onCommit = () => {
      store.ballot = ballotOf({ '11': vote(2) }, 5);
    };
    await expect(review(likes, id(1), true)).rejects.toMatchObject({ status: 404 });
  });

  it('a ballot that keeps moving: replanned up to the cap, then a 409 asking to retry', async () => {
    store.ballot = ballotOf({ '10': vote(1) });
    store.outcomes = Array.from({ length: REPLAN_ATTEMPTS }, (_, i) => ({ kind: i % 2 === 0 ? 'ballot-changed' : 'contended' }));
    await expect(review(likes, id(1), true)).rejects.toMatchObject({ status: 409, message: `The ballot holding vote ${id(1)} kept changing; please retry` });
    expect(store.commits).toHaveLength(REPLAN_ATTEMPTS);
    expect(store.reads).toHaveLength(REPLAN_ATTEMPTS);
  });

  it('one attempt short of the cap still commits', async () => {
    store.ballot = ballotOf({ '10': vote(1) });
    store.outcomes = Array.from({ length: REPLAN_ATTEMPTS - 1 }, () => ({ kind: 'ballot-changed' }));
    expect(await review(likes, id(1), true)).toMatchObject({ rejected: true });
    expect(store.commits).toHaveLength(REPLAN_ATTEMPTS);
  });
});
