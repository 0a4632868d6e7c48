/**
 * The checks of verify-votes (lib/votes/verify.ts) on plain ballots: tallies compared counter by
 * counter, a ballot's own hash, and the ballots rebuilt as they were at a checkpoint's time.
 */
import { describe, expect, it } from 'vitest';
import { GENESIS, merkleRoot } from '#lib/crypto/merkle';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { ballotLeafKey, sealBallot } from '#lib/votes/seal';
import { checkBallot, checkCheckpoint, compareTallies, leavesAt } from '#lib/votes/verify';

const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T01:00:00.000Z';
const T2 = '2030-01-01T02:00:00.000Z';
const T3 = '2030-01-01T03:00:00.000Z';

const vote = (id: number, opinion = 'yes') => ({ id, opinion, createdAt: T0 });

/** A ballot after `states` rounds, each sealed on the one before, the last written at `times[last]`. */
function ballot(userId: number, states: Record<string, ReturnType<typeof vote>>[], times: string[]): BallotItem {
  let previous: { hash?: string; updatedAt?: string } | undefined;
  let item: BallotItem | undefined;
  states.forEach((votes, i) => {
    const seal = sealBallot(previous, { userId, version: i + 1, votes });
    item = { siteId: 1, userId, votes, version: i + 1, updatedAt: times[i]!, ...seal };
    previous = { hash: seal.hash, updatedAt: times[i]! };
  });
  return item!;
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

describe('checkBallot', () => {
  it('accepts a sealed chain and names a changed vote, a missing hash and a first state that does not start the chain', () => {
    const b = ballot(7, [{ 1: vote(1) }, { 1: vote(1), 2: vote(2) }], [T0, T1]);
    expect(checkBallot(b)).toBeUndefined();
    expect(checkBallot({ ...b, votes: { 1: vote(1), 3: vote(3) } })).toMatch(/hash does not match/);
    expect(checkBallot({ ...b, version: 3 })).toMatch(/hash does not match/);
    const { hash: _h, ...unsealed } = b;
    expect(checkBallot(unsealed)).toMatch(/carries no hash/);
    const first = ballot(8, [{ 1: vote(1) }], [T0]);
    expect(checkBallot({ ...first, prevHash: b.hash })).toMatch(/does not start the chain/);
  });
});

describe('leavesAt and checkCheckpoint', () => {
  const old = ballot(1, [{ 1: vote(1) }], [T0]);
  const changedOnce = ballot(2, [{ 1: vote(1) }, { 2: vote(2) }], [T0, T2]);
  const newer = ballot(3, [{ 1: vote(1) }], [T2]);
  const leavesThen = [
    { key: ballotLeafKey(1), hash: old.hash! },
    { key: ballotLeafKey(2), hash: changedOnce.prevHash! },
  ];

  it('rebuilds the ballots at a time: older states as they are, a state written since by the one before, newer ballots left out', () => {
    expect(leavesAt([old, changedOnce, newer], T1)).toEqual({ leaves: leavesThen });
  });

  it('a ballot changed twice since then cannot be rebuilt', () => {
    const twice = ballot(4, [{ 1: vote(1) }, { 2: vote(2) }, { 1: vote(1) }], [T0, T2, T3]);
    expect(leavesAt([old, twice], T1)).toEqual({ unknown: 4 });
    const report = checkCheckpoint({ id: 9, siteId: 1, root: GENESIS, ballots: 2, createdAt: T1 }, [old, twice]);
    expect(report.problem).toBeUndefined();
    expect(report.note).toMatch(/not checkable/);
  });

  it('a checkpoint matches its ballots and names a changed root or count', () => {
    const root = merkleRoot(leavesThen);
    expect(checkCheckpoint({ id: 1, siteId: 1, root, ballots: 2, createdAt: T1 }, [old, changedOnce, newer])).toEqual({ note: 'checkpoint 1 matches (2 ballot(s))' });
    expect(checkCheckpoint({ id: 1, siteId: 1, root, ballots: 3, createdAt: T1 }, [old, changedOnce, newer]).problem).toMatch(/published root/);
    expect(checkCheckpoint({ id: 1, siteId: 1, root: GENESIS, ballots: 2, createdAt: T1 }, [old, changedOnce]).problem).toMatch(/published root/);
    expect(checkCheckpoint(undefined, [old])).toEqual({ note: 'no checkpoint yet' });
  });
});
