/** The results body per vote type, from plain ideas and ballots. */
import { describe, expect, it } from 'vitest';
import { computeResults, type ResultsIdea } from '#lib/results/results';

const AT = '2026-11-23T12:00:00.000Z';
const idea = (id: number, budget: number | null = null, theme: string | null = null): ResultsIdea => ({ id, title: `Idea ${id}`, budget, theme });
const ballot = (...ideaIds: number[]) => ({ votes: ideaIds.map((ideaId) => ({ ideaId, opinion: 'yes' })) });

describe('computeResults', () => {
  it('likes: ranking with yes and no, no winners or themes', () => {
    const result = computeResults({
      config: { voteType: 'likes', maxBudget: null },
      ideas: [idea(1), idea(2)],
      ballots: [{ votes: [{ ideaId: 2, opinion: 'yes' }, { ideaId: 1, opinion: 'no' }] }, { votes: [{ ideaId: 1, opinion: 'yes' }] }],
      computedAt: AT,
    });
    expect(result).toEqual({
      voteType: 'likes',
      computedAt: AT,
      ballots: 2,
      ideas: [
        { id: 1, title: 'Idea 1', yes: 1, no: 1, rank: 1 },
        { id: 2, title: 'Idea 2', yes: 1, no: 0, rank: 1 },
      ],
    });
  });

  it('budgeting: greedy and equal shares winners within maxBudget; an idea without a budget is ranked, never funded', () => {
    const ideas = [idea(1, 700), idea(2, 400), idea(3, 250), idea(4, 200), idea(5, 100), idea(6, null)];
    const ballots = [
      ballot(1, 2, 6), ballot(1, 2, 3), ballot(1, 2), ballot(1, 2, 3), ballot(1, 2, 3), ballot(1, 2),
      ballot(3, 4, 5), ballot(4), ballot(4, 5), ballot(3, 4, 5), ballot(1, 6),
    ];
    const result = computeResults({ config: { voteType: 'budgeting', maxBudget: 1100 }, ideas, ballots, computedAt: AT });
    expect(result.winners).toEqual({
      greedy: { ideaIds: [1, 2], spent: 1100 },
      equalShares: { ideaIds: [5, 4, 3, 2], spent: 950 }, // docs/results.md's worked example
    });
    expect(result.ideas.map((row) => [row.id, row.yes, row.rank])).toEqual([[1, 7, 1], [2, 6, 2], [3, 5, 3], [4, 4, 4], [5, 3, 5], [6, 2, 6]]);
    expect(result.themes).toBeUndefined();
  });

  it('budgeting without a maxBudget has no winners; a ballot of only "no" votes funds nothing', () => {
    const noBudget = computeResults({ config: { voteType: 'budgeting', maxBudget: null }, ideas: [idea(1, 5)], ballots: [ballot(1)], computedAt: AT });
    expect(noBudget).not.toHaveProperty('winners');
    const onlyNo = computeResults({
      config: { voteType: 'budgeting', maxBudget: 10 },
      ideas: [idea(1, 5)],
      ballots: [{ votes: [{ ideaId: 1, opinion: 'no' }] }],
      computedAt: AT,
    });
    expect(onlyNo.winners).toEqual({ greedy: { ideaIds: [], spent: 0 }, equalShares: { ideaIds: [], spent: 0 } });
  });

  it('budgeting-per-theme: each theme with its own budget (or the site budget), its own voters; unthemed ideas only in the ranking', () => {
    const ideas = [idea(1, 60, 'green'), idea(2, 50, 'green'), idea(3, 30, 'roads'), idea(4, 30, 'roads'), idea(5, 10, null)];
    const ballots = [ballot(1, 3), ballot(1, 4), ballot(2, 5), ballot(2)];
    const result = computeResults({
      config: { voteType: 'budgeting-per-theme', maxBudget: 40, themes: [{ value: 'green', maxBudget: 100 }, { value: 'roads' }, { value: 'empty' }] },
      ideas,
      ballots,
      computedAt: AT,
    });
    expect(result).not.toHaveProperty('winners');
    expect(result.ideas).toHaveLength(5);
    expect(result.themes!.map((t) => [t.value, t.ideas.map((i) => i.id), t.winners])).toEqual([
      ['green', [1, 2], { greedy: { ideaIds: [1], spent: 60 }, equalShares: { ideaIds: [2], spent: 50 } }],
      // Two ideas of 30, one voter each, budget 40: below 30 per voter neither is affordable, at 30 both
      // are bought (60 > 40), so add-one keeps the empty outcome. The textbook rule; see docs/results.md.
      ['roads', [3, 4], { greedy: { ideaIds: [3], spent: 30 }, equalShares: { ideaIds: [], spent: 0 } }],
      ['empty', [], { greedy: { ideaIds: [], spent: 0 }, equalShares: { ideaIds: [], spent: 0 } }],
    ]);
  });

  it('count-per-theme: themes with their ranking and no winners', () => {
    const result = computeResults({
      config: { voteType: 'count-per-theme', maxBudget: null, themes: [{ value: 'a' }] },
      ideas: [idea(1, null, 'a'), idea(2, null, 'b')],
      ballots: [ballot(1, 2)],
      computedAt: AT,
    });
    expect(result.themes).toEqual([{ value: 'a', ideas: [{ id: 1, title: 'Idea 1', yes: 1, no: 0, rank: 1 }] }]);
  });
});
