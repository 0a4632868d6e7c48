/**
 * The input both budgeting rules share (lib/results/approvals.ts) and the layout Equal Shares computes
 * on (lib/results/profile.ts): a bad amount or an idea listed twice is refused with a message that names
 * it; the profile groups voters with the same approvals, keeps only ideas with a vote (by id), and lists
 * both directions and the neighbours exactly.
 */
import { describe, expect, it } from 'vitest';
import { collectApprovals } from '#lib/results/approvals';
import { buildProfile } from '#lib/results/profile';

/** The error `run` throws: a RangeError with exactly `message`. */
function rangeErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RangeError);
    return (error as Error).message;
  }
  throw new Error('nothing was thrown');
}

describe('the budgeting input', () => {
  const ideas = [{ id: 1, cost: 5 }];

  it('refuses a budget that is not a whole amount >= 0, naming it and its value', () => {
    expect(rangeErrorOf(() => collectApprovals({ ideas, ballots: [], budget: -1 }))).toBe('budget must be a whole number >= 0, got -1');
    expect(rangeErrorOf(() => collectApprovals({ ideas, ballots: [], budget: 2.5 }))).toBe('budget must be a whole number >= 0, got 2.5');
    expect(rangeErrorOf(() => collectApprovals({ ideas, ballots: [], budget: 2 ** 53 }))).toBe(`budget must be a whole number >= 0, got ${2 ** 53}`);
    expect(collectApprovals({ ideas, ballots: [], budget: 0 }).budget).toBe(0);
  });

  it('refuses a cost that is not a whole amount >= 0, naming the idea', () => {
    expect(rangeErrorOf(() => collectApprovals({ ideas: [{ id: 1, cost: 5 }, { id: 3, cost: 1.5 }], ballots: [], budget: 10 }))).toBe(
      'cost of idea 3 must be a whole number >= 0, got 1.5',
    );
    expect(rangeErrorOf(() => collectApprovals({ ideas: [{ id: 4, cost: -2 }], ballots: [], budget: 10 }))).toBe('cost of idea 4 must be a whole number >= 0, got -2');
  });

  it('refuses an idea listed twice, naming it', () => {
    expect(rangeErrorOf(() => collectApprovals({ ideas: [{ id: 6, cost: 1 }, { id: 6, cost: 2 }], ballots: [], budget: 10 }))).toBe('Idea 6 is listed twice');
  });

  it('counts every ballot as a voter, and keeps the ideas with a vote by id with their supporters once each', () => {
    const approvals = collectApprovals({ ideas: [{ id: 9, cost: 1 }, { id: 2, cost: 4 }, { id: 7, cost: 2 }], ballots: [[9, 2], [2, 2, 99], [], [9]], budget: 10 });
    expect({ ...approvals, ideas: approvals.ideas.map((idea) => ({ ...idea, supporters: [...idea.supporters] })) }).toEqual({
      voters: 4,
      budget: 10,
      ideas: [
        { id: 2, cost: 4, supporters: [0, 1] },
        { id: 9, cost: 1, supporters: [0, 3] },
      ],
    });
  });
});

describe('the Equal Shares profile', () => {
  it('groups voters with the same approvals, in both directions, with the neighbours of each idea ascending', () => {
    // Ideas with a vote, by id: 2 (index 0), 5 (index 1), 9 (index 2); idea 7 has none and is left out.
    // Ballots: {2,9} twice (once with 9 named twice), {5}, an unknown idea only, nothing, {2}, {2,5,9}.
    const profile = buildProfile({
      ideas: [{ id: 5, cost: 3 }, { id: 2, cost: 4 }, { id: 9, cost: 1 }, { id: 7, cost: 2 }],
      ballots: [[9, 2], [2, 9, 9], [5], [99], [], [2], [9, 5, 2]],
      budget: 10,
    });
    const arrays = (value: Int32Array) => [...value];
    expect({
      voters: profile.voters,
      budget: profile.budget,
      ideas: profile.ideas,
      groupWeight: arrays(profile.groupWeight),
      groupIdeaStart: arrays(profile.groupIdeaStart),
      groupIdeaList: arrays(profile.groupIdeaList),
      ideaGroupStart: arrays(profile.ideaGroupStart),
      ideaGroupList: arrays(profile.ideaGroupList),
      neighbourStart: arrays(profile.neighbourStart),
      neighbourList: arrays(profile.neighbourList),
    }).toEqual({
      voters: 7,
      budget: 10,
      ideas: [
        { id: 2, cost: 4, supporters: 4 },
        { id: 5, cost: 3, supporters: 2 },
        { id: 9, cost: 1, supporters: 3 },
      ],
      // Groups in order of first appearance: {2,9} (weight 2), {5}, {2}, {2,5,9}.
      groupWeight: [2, 1, 1, 1],
      groupIdeaStart: [0, 2, 3, 4, 7],
      groupIdeaList: [0, 2, 1, 0, 0, 1, 2],
      ideaGroupStart: [0, 3, 5, 7],
      ideaGroupList: [0, 2, 3, 1, 3, 0, 3],
      neighbourStart: [0, 2, 4, 6],
      neighbourList: [1, 2, 0, 2, 0, 1],
    });
  });

  it('without ballots has no groups and no ideas', () => {
    const profile = buildProfile({ ideas: [{ id: 1, cost: 3 }], ballots: [], budget: 10 });
    expect(profile.ideas).toEqual([]);
    expect([...profile.groupWeight, ...profile.groupIdeaList, ...profile.ideaGroupList, ...profile.neighbourList]).toEqual([]);
    expect([...profile.groupIdeaStart, ...profile.ideaGroupStart, ...profile.neighbourStart]).toEqual([0, 0, 0]);
  });
});
