/** The likes/count ranking and the greedy budgeting rule on hand-made cases. */
import { describe, expect, it } from 'vitest';
import { fillGreedily, greedyWinners } from '#lib/results/greedy';
import { rankIdeas } from '#lib/results/rank';
import { countVotes } from '#lib/votes/tally';

describe('rankIdeas', () => {
  const ideas = [5, 3, 9, 1, 7].map((id) => ({ id, title: `Idea ${id}` }));

  it('ranks by yes, ties listed by id and sharing a competition rank (1, 2, 2, 4, 5)', () => {
    const tally = countVotes([
      ...[9, 9, 9, 3, 3, 7, 7, 5].map((ideaId) => ({ ideaId, opinion: 'yes' })),
      { ideaId: 1, opinion: 'no' },
      { ideaId: 3, opinion: 'no' },
    ]);
    expect(rankIdeas(ideas, tally)).toEqual([
      { id: 9, title: 'Idea 9', yes: 3, no: 0, rank: 1 },
      { id: 3, title: 'Idea 3', yes: 2, no: 1, rank: 2 },
      { id: 7, title: 'Idea 7', yes: 2, no: 0, rank: 2 },
      { id: 5, title: 'Idea 5', yes: 1, no: 0, rank: 4 },
      { id: 1, title: 'Idea 1', yes: 0, no: 1, rank: 5 },
    ]);
  });

  it('an idea without votes has 0 and 0; all tied share rank 1; no ideas, no rows', () => {
    expect(rankIdeas(ideas, new Map()).map((row) => [row.id, row.rank, row.yes, row.no])).toEqual([
      [1, 1, 0, 0],
      [3, 1, 0, 0],
      [5, 1, 0, 0],
      [7, 1, 0, 0],
      [9, 1, 0, 0],
    ]);
    expect(rankIdeas([], new Map())).toEqual([]);
  });

  it('ignores opinions other than yes and no for the counts (they still exist in the tally)', () => {
    const tally = countVotes([{ ideaId: 5, opinion: 'maybe' }, { ideaId: 5, opinion: 'yes' }]);
    expect(rankIdeas([{ id: 5, title: 'x' }], tally)).toEqual([{ id: 5, title: 'x', yes: 1, no: 0, rank: 1 }]);
  });
});

describe('greedyWinners', () => {
  it('takes the most-voted first, skips what no longer fits and goes on with cheaper ideas', () => {
    const input = {
      ideas: [{ id: 1, cost: 600 }, { id: 2, cost: 500 }, { id: 3, cost: 300 }, { id: 4, cost: 100 }, { id: 5, cost: 50 }],
      // votes: 1 -> 4, 2 -> 3, 3 -> 2, 4 -> 1, 5 -> 0
      ballots: [[1, 2, 3, 4], [1, 2, 3], [1, 2], [1]],
      budget: 1000,
    };
    expect(greedyWinners(input)).toEqual({ ideaIds: [1, 3, 4], spent: 1000 });
  });

  it('breaks equal votes by lower id, and funds no idea without votes even if it fits', () => {
    const input = { ideas: [{ id: 8, cost: 10 }, { id: 2, cost: 10 }, { id: 5, cost: 1 }], ballots: [[8], [2]], budget: 15 };
    expect(greedyWinners(input)).toEqual({ ideaIds: [2], spent: 10 });
  });

  it('a budget of 0 funds only free ideas with a vote', () => {
    const input = { ideas: [{ id: 1, cost: 0 }, { id: 2, cost: 1 }, { id: 3, cost: 0 }], ballots: [[1, 2]], budget: 0 };
    expect(greedyWinners(input)).toEqual({ ideaIds: [1], spent: 0 });
  });

  it('takes more votes before a lower id: the funded ideas come in the order of their votes', () => {
    // Idea 2 has three votes, idea 1 one; a budget for one of them funds idea 2, one for both lists 2 first.
    const ideas = [{ id: 1, cost: 10 }, { id: 2, cost: 10 }];
    const ballots = [[1], [2], [2], [2]];
    expect(greedyWinners({ ideas, ballots, budget: 10 })).toEqual({ ideaIds: [2], spent: 10 });
    expect(greedyWinners({ ideas, ballots, budget: 20 })).toEqual({ ideaIds: [2, 1], spent: 20 });
  });
});

describe('fillGreedily (also the fill after Equal Shares)', () => {
  it('breaks equal votes by lower id whatever order the ideas come in', () => {
    const ideas = [{ id: 7, cost: 5, supporters: 2 }, { id: 3, cost: 5, supporters: 2 }];
    expect(fillGreedily(ideas, 5, [], 0)).toEqual({ ideaIds: [3], spent: 5 });
    expect(fillGreedily(ideas, 10, [], 0)).toEqual({ ideaIds: [3, 7], spent: 10 });
  });

  it('keeps what is chosen, in its order, and adds only what still fits the rest of the budget', () => {
    const ideas = [{ id: 1, cost: 4, supporters: 1 }, { id: 2, cost: 3, supporters: 5 }, { id: 3, cost: 2, supporters: 3 }];
    expect(fillGreedily(ideas, 9, [1], 4)).toEqual({ ideaIds: [1, 2, 3], spent: 9 });
    expect(fillGreedily(ideas, 8, [1], 4)).toEqual({ ideaIds: [1, 2], spent: 7 });
  });
});
