/**
 * Taking votes out of ballots outside a vote round (lib/votes/remove-votes.ts), with the store replaced
 * by an in-memory double: what is removed from which ballot as read, with which seal, what is finished
 * or read first, and what goes after. The integration tests (idea deletion) run the same code against
 * DynamoDB Local; these pin the decisions without it (the mutation run).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BallotItem, BallotSeal, BallotVote } from '#lib/store/ballots/ballots';
import { GENESIS_MAC, macIsValid } from '#lib/vote-record/entry';
import { sealedOf } from '#lib/vote-record/entry-item';
import { voteChainKey } from '#lib/vote-record/keys';

const store = vi.hoisted(() => ({
  ballots: new Map<number, BallotItem>(),
  /** What `ballotsHoldingIdea` answers (the Query as it was read). */
  holding: [] as BallotItem[],
  /** What each removal answers, in turn ('done' when empty). */
  outcomes: [] as Array<'done' | 'changed'>,
  /** Runs as a removal is sent (another writer moving the ballot meanwhile). */
  onRemove: undefined as (() => void) | undefined,
  events: [] as unknown[][],
  removals: [] as Array<{ siteId: number; read: BallotItem; ideaId: number; seal: BallotSeal; now: string }>,
  /** The due times asked of the vote-checkpoints job. */
  dues: [] as string[],
}));

vi.mock('#lib/store/ballots/ballots', () => ({
  ballotsHoldingIdea: vi.fn(async (siteId: number, ideaId: number) => {
    store.events.push(['query', siteId, ideaId]);
    return structuredClone(store.holding);
  }),
  getBallot: vi.fn(async (siteId: number, userId: number, consistent?: boolean) => {
    store.events.push(['get', siteId, userId, consistent]);
    const ballot = store.ballots.get(userId);
    return ballot === undefined ? undefined : structuredClone(ballot);
  }),
  removeVoteFromBallot: vi.fn(async (siteId: number, read: BallotItem, ideaId: number, seal: BallotSeal, now: string) => {
    store.events.push(['remove', siteId, read.userId, ideaId, read.version]);
    store.removals.push({ siteId, read, ideaId, seal, now });
    store.onRemove?.();
    return store.outcomes.shift() ?? 'done';
  }),
  deleteStrayTally: vi.fn(async (siteId: number, ideaId: number) => {
    store.events.push(['deleteStrayTally', siteId, ideaId]);
  }),
}));
vi.mock('#lib/store/ballots/journal', () => ({
  finishPendingTallies: vi.fn(async (siteId: number, userId: number, pending: unknown) => {
    store.events.push(['finish', siteId, userId, pending]);
    const ballot = store.ballots.get(userId);
    if (ballot) store.ballots.set(userId, { ...ballot, pendingTallies: undefined, version: ballot.version + 1 });
  }),
}));
vi.mock('#lib/store/ideas/tallies', () => ({
  deleteTally: vi.fn(async (siteId: number, ideaId: number) => {
    store.events.push(['deleteTally', siteId, ideaId]);
  }),
}));
vi.mock('#lib/store/jobs/jobs', () => ({
  makeJobDueBy: vi.fn(async (siteId: number, job: string, dueAt: string) => {
    store.events.push(['due', siteId, job]);
    store.dues.push(dueAt);
  }),
}));
// No pause between attempts (the re-plan loop's jitter).
vi.mock('#lib/store/db/retry', async (importOriginal) => ({ ...(await importOriginal<object>()), jitteredDelayMs: () => 0 }));
const { REPLAN_ATTEMPTS } = await import('#lib/store/db/replan');
const { removeIdeaFromBallots, removeLateVote } = await import('#lib/votes/remove-votes');

const MAC = 'cd'.repeat(32);
const vote = (id: number, opinion = 'yes', review?: BallotVote['review']): BallotVote => ({ id, opinion, createdAt: '2026-01-01T00:00:00.000Z', ...(review ? { review } : {}) });
const ballotOf = (userId: number, votes: Record<string, BallotVote>, extra: Partial<BallotItem> = {}): BallotItem => ({
  siteId: 1,
  userId,
  version: 3,
  updatedAt: '2026-01-02T00:00:00.000Z',
  hash: MAC,
  votes,
  ...extra,
});
const stored = (...ballots: BallotItem[]) => {
  for (const ballot of ballots) store.ballots.set(ballot.userId, ballot);
  return ballots;
};

beforeEach(() => {
  Object.assign(store, { ballots: new Map(), holding: [], outcomes: [], onRemove: undefined, events: [], removals: [], dues: [] });
});

describe('removeIdeaFromBallots', () => {
  it('takes the vote on the idea out of every ballot holding it, as read, each with the seal of what remains; the tally after', async () => {
    store.holding = stored(ballotOf(7, { '10': vote(1), '11': vote(2, 'no') }), ballotOf(8, { '10': vote(3, 'no') }, { version: 9, hash: 'legacy' }));
    const before = new Date().toISOString();
    await removeIdeaFromBallots(1, 10);
    expect(store.events).toEqual([
      ['query', 1, 10],
      ['remove', 1, 7, 10, 3],
      ['remove', 1, 8, 10, 9],
      ['due', 1, 'vote-checkpoints'],
      ['deleteTally', 1, 10],
    ]);
    // Once, a settle minute after the cascade's last entry, so the run that takes it up cuts after it.
    expect(store.dues).toEqual([new Date(Date.parse(store.removals[1]!.now) + 60_000).toISOString()]);
    const [first, second] = store.removals;
    // The ballot handed over is the one read (its version is the write's condition).
    expect(first!.read).toEqual(store.holding[0]);
    expect(first!.seal.entry).toMatchObject({ siteId: 1, userId: 7, version: 4, prevMac: MAC, votes: [[11, 'no']] });
    expect(first!.seal).toMatchObject({ hash: first!.seal.entry.mac, prevHash: MAC });
    expect(macIsValid(voteChainKey(), sealedOf(first!.seal.entry))).toBe(true);
    expect(first!.now >= before).toBe(true);
    // A ballot from before the vote log starts a chain of its own; one emptied is sealed empty.
    expect(second!.seal.entry).toMatchObject({ userId: 8, version: 10, prevMac: GENESIS_MAC, votes: [] });
  });

  it('a rejected vote that remains is sealed as rejected', async () => {
    const rejection = { rejected: true, by: 5, at: '2026-01-03T00:00:00.000Z' };
    store.holding = stored(ballotOf(7, { '10': vote(1), '11': vote(2, 'yes', rejection) }));
    await removeIdeaFromBallots(1, 10);
    expect(store.removals[0]!.seal.entry).toMatchObject({ votes: [], rejected: [[11, 'yes', 5]] });
  });

  it('nothing to do for a ballot that holds no such vote (a repeat of the cascade); the tally still goes', async () => {
    store.holding = stored(ballotOf(7, { '11': vote(2) }));
    await removeIdeaFromBallots(1, 10);
    expect(store.removals).toEqual([]);
    expect(store.events).toEqual([
      ['query', 1, 10],
      ['deleteTally', 1, 10],
    ]);
  });

  it('no ballot holds the idea: only the tally goes', async () => {
    await removeIdeaFromBallots(1, 10);
    expect(store.events).toEqual([
      ['query', 1, 10],
      ['deleteTally', 1, 10],
    ]);
  });

  it('a round that stopped halfway: its counts are finished first, and the removal is made from the ballot read after', async () => {
    const pending = { next: 1, steps: [[{ ideaId: 10, change: { yes: 1 } }], [{ ideaId: 11, change: { yes: 1 } }]] };
    store.holding = stored(ballotOf(7, { '10': vote(1), '11': vote(2) }, { pendingTallies: pending }));
    await removeIdeaFromBallots(1, 10);
    expect(store.events).toEqual([
      ['query', 1, 10],
      ['finish', 1, 7, pending],
      ['get', 1, 7, true],
      ['remove', 1, 7, 10, 4],
      ['due', 1, 'vote-checkpoints'],
      ['deleteTally', 1, 10],
    ]);
    expect(store.removals[0]!.read.pendingTallies).toBeUndefined();
    expect(store.removals[0]!.seal.entry.version).toBe(5);
  });

  it('a ballot that moved meanwhile is read again (consistently) and what it holds now is removed', async () => {
    store.holding = stored(ballotOf(7, { '10': vote(1), '11': vote(2) }));
    store.outcomes = ['changed'];
    // The voter's round added a vote as the removal was sent.
    store.onRemove = () => {
      store.ballots.set(7, ballotOf(7, { '10': vote(1), '11': vote(2), '12': vote(3) }, { version: 4, hash: 'ef'.repeat(32) }));
      store.onRemove = undefined;
    };
    await removeIdeaFromBallots(1, 10);
    expect(store.events).toEqual([
      ['query', 1, 10],
      ['remove', 1, 7, 10, 3],
      ['get', 1, 7, true],
      ['remove', 1, 7, 10, 4],
      ['due', 1, 'vote-checkpoints'],
      ['deleteTally', 1, 10],
    ]);
    expect(store.removals[1]!.seal.entry).toMatchObject({ version: 5, prevMac: 'ef'.repeat(32), votes: [[11, 'yes'], [12, 'yes']] });
  });

  it('a ballot that no longer holds the vote, or is gone, when read again: nothing more to do', async () => {
    store.holding = stored(ballotOf(7, { '10': vote(1) }), ballotOf(8, { '10': vote(2) }));
    store.outcomes = ['changed', 'changed'];
    store.onRemove = () => {
      store.ballots.set(7, ballotOf(7, {}, { version: 4 }));
      store.ballots.delete(8);
    };
    await removeIdeaFromBallots(1, 10);
    expect(store.removals).toHaveLength(2);
    expect(store.events.at(-1)).toEqual(['deleteTally', 1, 10]);
  });

  it('a ballot that keeps moving: read again up to the cap, then a 409 asking to retry; the tally is left for the retry', async () => {
    store.holding = stored(ballotOf(7, { '10': vote(1) }));
    store.outcomes = Array.from({ length: REPLAN_ATTEMPTS }, () => 'changed' as const);
    await expect(removeIdeaFromBallots(1, 10)).rejects.toMatchObject({
      status: 409,
      message: 'The votes of user 7 kept changing while idea 10 was being removed; please retry',
    });
    expect(store.removals).toHaveLength(REPLAN_ATTEMPTS);
    expect(store.events.filter(([what]) => what === 'get')).toHaveLength(REPLAN_ATTEMPTS - 1);
    expect(store.events.some(([what]) => what === 'deleteTally')).toBe(false);
  });
});

describe('removeLateVote', () => {
  it("reads the voter's ballot consistently, takes the vote out with its seal, then deletes the stray tally", async () => {
    stored(ballotOf(7, { '10': vote(1), '11': vote(2) }));
    await removeLateVote(1, 7, 10);
    expect(store.events).toEqual([
      ['get', 1, 7, true],
      ['remove', 1, 7, 10, 3],
      ['deleteStrayTally', 1, 10],
    ]);
    expect(store.removals[0]!.seal.entry).toMatchObject({ version: 4, votes: [[11, 'yes']] });
  });

  it('no ballot, or one without the vote (already taken out): only the stray tally goes', async () => {
    await removeLateVote(1, 7, 10);
    stored(ballotOf(7, { '11': vote(2) }));
    await removeLateVote(1, 7, 10);
    expect(store.removals).toEqual([]);
    expect(store.events).toEqual([
      ['get', 1, 7, true],
      ['deleteStrayTally', 1, 10],
      ['get', 1, 7, true],
      ['deleteStrayTally', 1, 10],
    ]);
  });
});
