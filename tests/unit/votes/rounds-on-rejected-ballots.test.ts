/**
 * A round on a ballot a moderator rejected (lib/votes/round.ts): a round that changes the ballot makes
 * a new one, counted whole (the votes it keeps count again); the same ballot sent again changes nothing
 * and stays rejected; a rejected vote the round removes moves no count, as it was counted nowhere.
 */
import { describe, expect, it } from 'vitest';
import { planRound } from '#lib/votes/round';
import type { BallotVote, CastVote, VotesConfig } from '#lib/votes/types';
import { expectApiError, held, ideaMap, plainTally, votesConfig } from './helpers';

const yes = (...ids: number[]): CastVote[] => ids.map((ideaId) => ({ ideaId, opinion: 'yes' }));
const ideas = ideaMap({ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 });
const count = (overrides: Partial<VotesConfig> = {}) => votesConfig({ voteType: 'count', withExisting: 'replace', minIdeas: 1, maxIdeas: 3, ...overrides });
const rejected = (vote: BallotVote): BallotVote => ({ ...vote, review: { rejected: true, by: 3, at: '2024-02-01T00:00:00.000Z' } });
const reinstated = (vote: BallotVote): BallotVote => ({ ...vote, review: { rejected: false, by: 3, at: '2024-02-02T00:00:00.000Z' } });

describe('planRound on a rejected ballot', () => {
  it('a round that changes it counts the new ballot whole: the kept votes again, the added ones, and nothing taken off for the rejected removed vote', () => {
    const existing = [rejected(held(1)), rejected(held(2))];
    const plan = planRound({ config: count(), existing, round: yes(1, 3), ideas });
    expect(plan.clearsRejection).toEqual({ recounted: [{ ideaId: 1, opinion: 'yes' }] });
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: 1 }, 3: { yes: 1 } });
    expect(plan.removed.map((vote) => vote.ideaId)).toEqual([2]);
  });

  it('a counted vote the round removes is taken off; a reinstated kept vote is not counted twice', () => {
    const existing = [rejected(held(1)), reinstated(held(2)), held(4)];
    const plan = planRound({ config: count(), existing, round: yes(1, 2, 3), ideas });
    expect(plan.clearsRejection).toEqual({ recounted: [{ ideaId: 1, opinion: 'yes' }] });
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: 1 }, 3: { yes: 1 }, 4: { yes: -1 } });
  });

  it('a round that only removes votes from it still clears the rejection of those it keeps', () => {
    const existing = [rejected(held(1)), rejected(held(2))];
    const plan = planRound({ config: count(), existing, round: yes(1), ideas });
    expect(plan.clearsRejection).toEqual({ recounted: [{ ideaId: 1, opinion: 'yes' }] });
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: 1 } });
  });

  it('the same ballot sent again changes nothing and stays rejected', () => {
    const existing = [rejected(held(1)), rejected(held(2))];
    const plan = planRound({ config: count(), existing, round: yes(2, 1), ideas });
    expect(plan.clearsRejection).toBeUndefined();
    expect(plainTally(plan.tallyDeltas)).toEqual({});
    expect({ added: plan.added, removed: plan.removed }).toEqual({ added: [], removed: [] });
  });

  it('a ballot that is not rejected (reinstated included) keeps the plain difference, without clearsRejection', () => {
    const plan = planRound({ config: count(), existing: [reinstated(held(1)), held(2)], round: yes(1, 3), ideas });
    expect(plan.clearsRejection).toBeUndefined();
    expect(plainTally(plan.tallyDeltas)).toEqual({ 2: { yes: -1 }, 3: { yes: 1 } });
  });

  it('the limits are checked on the new set before the rejection is cleared', () => {
    const existing = [rejected(held(1))];
    expectApiError(() => planRound({ config: count({ maxIdeas: 2 }), existing, round: yes(1, 2, 3), ideas }), 400, 'ValidationError', ['']);
  });
});

describe('planRound for likes with a rejected like', () => {
  it('taking back a rejected like moves no count; taking back a counted one does', () => {
    const likes = votesConfig({ voteType: 'likes' });
    const plan = planRound({ config: likes, existing: [rejected(held(1)), held(2)], round: yes(1, 2), ideas });
    expect(plan.removed.map((vote) => vote.ideaId)).toEqual([1, 2]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 2: { yes: -1 } });
    expect(plan.clearsRejection).toBeUndefined();
  });
});

describe('planRound: an empty round', () => {
  it('is a 400 for every vote type, even for a voter who holds votes', () => {
    for (const config of [count(), votesConfig({ voteType: 'likes' })]) {
      const error = expectApiError(() => planRound({ config, existing: [held(1)], round: [], ideas }), 400, 'ValidationError', ['']);
      expect(error.details?.[0]?.message).toBe('A vote round needs at least one vote');
    }
  });
});
