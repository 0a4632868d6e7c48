/**
 * The checks verify-votes (lib/results/verify.ts) adds to the log audit: tallies compared counter by
 * counter with the ballots, each item of the ballot range the one ballot of its user, and each ballot
 * compared with its latest vote log entry.
 */
import { describe, expect, it } from 'vitest';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { sealBallot } from '#lib/votes/seal';
import { checkBallotKeys, compareBallots, compareTallies } from '#lib/results/verify';
import { ballotKeys } from '#lib/store/ballots/keys';
import { sealedOf } from '#lib/vote-record/entry-item';

const T0 = '2030-01-01T00:00:00.000Z';
const vote = (id: number, opinion = 'yes') => ({ id, opinion, createdAt: T0 });

/** A ballot as a round writes it, and its entry. */
function written(userId: number, votes: Record<string, ReturnType<typeof vote>>) {
  const seal = sealBallot(undefined, { siteId: 1, userId, version: 1, votes });
  const ballot: BallotItem = { siteId: 1, userId, votes, version: 1, updatedAt: T0, hash: seal.hash, prevHash: seal.prevHash };
  return { ballot, entry: sealedOf(seal.entry) };
}

describe('compareTallies', () => {
  it('a missing counter equals 0; any other difference is named', () => {
    expect(compareTallies(new Map([[1, { yes: 2 }]]), new Map([[1, { yes: 2, no: 0 }]]))).toEqual([]);
    expect(compareTallies(new Map([[1, { yes: 2 }]]), new Map<number, Record<string, number>>([[1, { yes: 3 }], [2, { no: 1 }]]))).toEqual([
      "tally of idea 1 'yes': stored 3, ballots hold 2",
      "tally of idea 2 'no': stored 1, ballots hold 0",
    ]);
  });
});

describe('compareBallots', () => {
  it('a ballot that is its latest entry agrees; edited in place, written behind the log or gone, it is named', () => {
    const a = written(1, { '10': vote(1) });
    const b = written(2, { '11': vote(2, 'no') });
    expect(compareBallots([a.ballot, b.ballot], new Map([[1, a.entry], [2, b.entry]]))).toEqual({ problems: [], unlogged: 0 });
    const edited = { ...a.ballot, votes: { '12': vote(1) } };
    expect(compareBallots([edited], new Map([[1, a.entry]])).problems).toEqual(['the ballot of user 1 (version 1) holds other votes than its log entry: edited in place']);
    const behind = { ...a.ballot, version: 2, hash: 'f'.repeat(64) };
    expect(compareBallots([behind], new Map([[1, a.entry]])).problems[0]).toMatch(/is not its latest log entry .*written behind the log/);
    expect(compareBallots([], new Map([[1, a.entry]])).problems).toEqual(['the log holds votes of user 1 (version 1) whose ballot is gone']);
    // A ballot from before the log began: a note, not a problem.
    expect(compareBallots([{ ...a.ballot, hash: undefined }], new Map())).toEqual({ problems: [], unlogged: 1 });
  });

  it('votes and rejected votes are compared by idea whatever order the entry lists them in', () => {
    const rejected = (id: number) => ({ ...vote(id), review: { rejected: true, by: 7, at: T0 } });
    const a = written(1, { '10': vote(1), '9': vote(2, 'no'), '11': rejected(3), '8': rejected(4) });
    expect(a.entry.votes.length).toBe(2);
    expect(a.entry.rejected).toHaveLength(2);
    const reordered = { ...a.entry, votes: [...a.entry.votes].reverse(), rejected: [...a.entry.rejected!].reverse() };
    expect(compareBallots([a.ballot], new Map([[1, reordered]]))).toEqual({ problems: [], unlogged: 0 });
    const opinion = { ...a.ballot, votes: { ...a.ballot.votes, '9': vote(2, 'yes') } };
    expect(compareBallots([opinion], new Map([[1, reordered]])).problems).toEqual(['the ballot of user 1 (version 1) holds other votes than its log entry: edited in place']);
    const reinstated = { ...a.ballot, votes: { ...a.ballot.votes, '11': vote(3) } };
    expect(compareBallots([reinstated], new Map([[1, { ...reordered, votes: [...reordered.votes, { ideaId: 11, opinion: 'yes' }] }]])).problems).toEqual([
      'the ballot of user 1 (version 1) holds other rejected votes than its log entry: a rejection edited in place',
    ]);
    const otherModerator = { ...a.ballot, votes: { ...a.ballot.votes, '8': { ...rejected(4), review: { rejected: true, by: 8, at: T0 } } } };
    expect(compareBallots([otherModerator], new Map([[1, reordered]])).problems).toHaveLength(1);
  });

  it('once a checkpoint says the log holds every ballot, a ballot with votes and no entry is written behind the log; one without votes counts nothing', () => {
    const a = written(1, { '10': vote(1) });
    const forged = { ...a.ballot, userId: 9, hash: undefined };
    expect(compareBallots([forged], new Map(), { id: 4 })).toEqual({
      problems: ['the ballot of user 9 (version 1) has no log entry: written behind the log (checkpoint 4 says the log holds every ballot)'],
      unlogged: 0,
    });
    // With a made-up seal too: it has no entry all the same.
    expect(compareBallots([{ ...forged, hash: 'e'.repeat(64) }], new Map(), { id: 4 }).problems).toHaveLength(1);
    expect(compareBallots([{ ...forged, votes: {} }], new Map(), { id: 4 })).toEqual({ problems: [], unlogged: 0 });
  });
});

describe('checkBallotKeys', () => {
  const a = written(1, { '10': vote(1) }).ballot;
  const at = (ballot: BallotItem, sk = ballotKeys.ballot(1, ballot.userId).SK) => ({ sk, ballot });

  it('a ballot under its user\'s key on its own site is in place', () => {
    expect(checkBallotKeys(1, [at(a)])).toEqual({ problems: [], placed: [a] });
  });

  it('a copy under another key, a ballot naming another site and a key with a tail are each named and left out', () => {
    const copy = at(a, ballotKeys.ballot(1, 99).SK);
    expect(checkBallotKeys(1, [at(a), copy]).problems).toEqual([
      `the item ${copy.sk} in the ballot range (user 1) is not a ballot of this site: it is stored under ${copy.sk}, not its user's ballot key`,
      'user 1 has 2 items in the ballot range: one ballot per user',
    ]);
    expect(checkBallotKeys(1, [at(a), copy]).placed).toEqual([a]);
    const foreign = { ...a, siteId: 2 };
    expect(checkBallotKeys(1, [at(foreign)]).problems).toEqual([`the item ${ballotKeys.ballot(1, 1).SK} in the ballot range (user 1) is not a ballot of this site: it names site 2`]);
    expect(checkBallotKeys(1, [at(a, `${ballotKeys.ballot(1, 1).SK}x`)]).placed).toEqual([]);
  });

  it('a malformed item is named by its key and left out; the others are checked as before', () => {
    const malformed = { sk: ballotKeys.ballot(1, 2).SK, malformed: { key: `SITE#1/${ballotKeys.ballot(1, 2).SK}`, problem: 'votes expected record' } };
    expect(checkBallotKeys(1, [at(a), malformed])).toEqual({
      problems: [`a malformed item in the ballot range: SITE#1/${ballotKeys.ballot(1, 2).SK} (votes expected record)`],
      placed: [a],
    });
  });
});
