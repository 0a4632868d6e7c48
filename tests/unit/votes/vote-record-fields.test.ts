/**
 * What a vote record carries beyond its vote (lib/votes/records.ts): the review a moderator made, the
 * round's receipt, a ballot's receipt, and the answer an Idempotency-Key keeps (older records: the vote
 * set alone).
 */
import { describe, expect, it } from 'vitest';
import { receiptOf, storedRoundAnswer, toVoteRecord, votesOfBallot } from '#lib/votes/records';

const at = '2024-06-15T12:00:00.000Z';
const reviewedAt = '2024-06-16T08:00:00.000Z';
const RECEIPT = 'c0'.repeat(32);
const vote = { id: 5, ideaId: 7, opinion: 'yes', createdAt: at };

describe('a vote record with a review', () => {
  it('a rejected vote says so to everyone who sees it; when, only with the voter (moderators and the voter)', () => {
    const rejected = { ...vote, review: { rejected: true, by: 3, at: reviewedAt } };
    expect(toVoteRecord(rejected, 42, true)).toEqual({ ...vote, userId: 42, rejected: true, reviewedAt });
    expect(toVoteRecord(rejected, 42, false)).toEqual({ ...vote, rejected: true });
  });

  it('a reinstated vote: no `rejected`, and its review time only with the voter', () => {
    const reinstated = { ...vote, review: { rejected: false, by: null, at: reviewedAt } };
    expect(toVoteRecord(reinstated, 42, true)).toEqual({ ...vote, userId: 42, reviewedAt });
    expect(toVoteRecord(reinstated, 42, false)).toEqual(vote);
  });

  it("the round's receipt goes on every record it is given to, shown voter or not", () => {
    expect(toVoteRecord(vote, 42, false, RECEIPT)).toEqual({ ...vote, receipt: RECEIPT });
    expect(toVoteRecord(vote, 42, true, RECEIPT)).toEqual({ ...vote, userId: 42, receipt: RECEIPT });
    expect('receipt' in toVoteRecord(vote, 42, true)).toBe(false);
  });

  it("a stored ballot's review comes along with its vote; a vote without one gets no `review` key", () => {
    const review = { rejected: true, by: 3, at: reviewedAt };
    const votes = votesOfBallot({ '7': { id: 5, opinion: 'yes', createdAt: at, review }, '2': { id: 6, opinion: 'no', createdAt: at } });
    expect(votes).toEqual([
      { id: 6, ideaId: 2, opinion: 'no', createdAt: at },
      { ...vote, review },
    ]);
    expect('review' in votes[0]!).toBe(false);
  });
});

describe("a ballot's receipt", () => {
  it('is its hash when that is a mac (64 lowercase hex digits); none for a ballot from before the log, or no ballot', () => {
    expect(receiptOf({ hash: RECEIPT })).toBe(RECEIPT);
    for (const ballot of [undefined, {}, { hash: undefined }, { hash: 'C0'.repeat(32) }, { hash: 'c0'.repeat(31) }, { hash: `${RECEIPT}0` }, { hash: `x${RECEIPT}` }]) {
      expect(receiptOf(ballot), JSON.stringify(ballot)).toBeUndefined();
    }
  });
});

describe('the answer an Idempotency-Key keeps', () => {
  const votes = { '1': { id: 1, opinion: 'yes', createdAt: at } };

  it('the vote set and the receipt; an older record (the vote set alone) has no receipt', () => {
    expect(storedRoundAnswer({ votes, receipt: RECEIPT })).toEqual({ votes, receipt: RECEIPT });
    expect(storedRoundAnswer(votes)).toEqual({ votes, receipt: undefined });
    expect(storedRoundAnswer({})).toEqual({ votes: {}, receipt: undefined });
  });

  it('a receipt that is no mac is dropped, the votes kept', () => {
    for (const receipt of [undefined, 5, 'C0'.repeat(32), 'c0'.repeat(31)]) {
      expect(storedRoundAnswer({ votes, receipt }), String(receipt)).toEqual({ votes, receipt: undefined });
    }
  });

  it('anything else is no stored answer', () => {
    for (const value of [null, undefined, 'x', 3, [votes], { votes: null }, { votes: [votes['1']] }, { votes: { a: votes['1'] } }, { receipt: RECEIPT }]) {
      expect(storedRoundAnswer(value), JSON.stringify(value)).toBeUndefined();
    }
  });
});
