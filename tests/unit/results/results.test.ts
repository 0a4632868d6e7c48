/** The results body per vote type, from plain ideas and ballots. */
import { describe, expect, it } from 'vitest';
import { computeResults, computeResultsWithin, type ResultsIdea, type ResultsProgress } from '#lib/results/results';

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

  it('a per-theme vote type without themes: an empty list of themes, and no winners', () => {
    const result = computeResults({ config: { voteType: 'budgeting-per-theme', maxBudget: 50 }, ideas: [idea(1, 10, 'a')], ballots: [ballot(1)], computedAt: AT });
    expect(result).toEqual({ voteType: 'budgeting-per-theme', computedAt: AT, ballots: 1, ideas: [{ id: 1, title: 'Idea 1', yes: 1, no: 0, rank: 1 }], themes: [] });
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

describe('computeResultsWithin (a computation a background job stops at its deadline and resumes)', () => {
  // A site where the add-one completion takes dozens of runs: few voters, a budget well above their share.
  const ideas = Array.from({ length: 12 }, (_, i) => idea(i + 1, 100 + 37 * i, i % 2 === 0 ? 'even' : 'odd'));
  const ballots = Array.from({ length: 9 }, (_, v) => ballot(...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((id) => (id * (v + 3)) % 5 < 2)));
  const input = (voteType: 'budgeting' | 'budgeting-per-theme') => ({
    config: { voteType, maxBudget: 1500, themes: [{ value: 'even', maxBudget: 900 }, { value: 'odd' }] },
    ideas,
    ballots,
    computedAt: AT,
  });

  for (const voteType of ['budgeting', 'budgeting-per-theme'] as const) {
    it(`${voteType}: stopped after every Equal Shares run and resumed from its stored progress, it gives the uninterrupted answer`, () => {
      const whole = computeResults(input(voteType));
      let progress: ResultsProgress | undefined;
      let resumes = 0;
      for (;;) {
        let calls = 0;
        // JSON round trip: the progress is what a job stores in DynamoDB between runs.
        const step = computeResultsWithin(input(voteType), { stop: () => calls++ > 0, progress });
        if (step.kind === 'done') {
          expect(step.results).toEqual(whole);
          break;
        }
        progress = JSON.parse(JSON.stringify(step.progress)) as ResultsProgress;
        resumes += 1;
      }
      expect(resumes).toBeGreaterThan(3);
    });
  }

  it('progress of another input is not reused, even a finished search: the answer is its own', () => {
    const finishedElsewhere: ResultsProgress = {
      fingerprint: 'of other ballots',
      searches: { site: { endowment: '0', kept: { ideaIds: [], spent: 0 }, next: null, increment: '1', runs: 0 } },
    };
    expect(computeResultsWithin(input('budgeting'), { progress: finishedElsewhere })).toEqual({ kind: 'done', results: computeResults(input('budgeting')) });
  });

  it('a ballot that approves nothing a budget can fund is no voter of that budget: the progress stands', () => {
    const step = computeResultsWithin(input('budgeting'), { stop: () => true });
    expect(step.kind).toBe('progress');
    const progress = step.kind === 'progress' ? step.progress : undefined;
    const withUnfunded = { ...input('budgeting'), ideas: [...ideas, idea(13)], ballots: [...ballots, ballot(13)] };
    const resumed = computeResultsWithin(withUnfunded, { stop: () => true, progress });
    expect(resumed.kind === 'progress' ? resumed.progress.fingerprint : undefined).toBe(progress?.fingerprint);
  });

  it('progress of other ballots is not reused: a changed input starts again and still gives its own answer', () => {
    let calls = 0;
    const step = computeResultsWithin(input('budgeting'), { stop: () => calls++ > 2 });
    expect(step.kind).toBe('progress');
    const changed = { ...input('budgeting'), ballots: [...ballots, ballot(1, 2)] };
    const resumed = computeResultsWithin(changed, { progress: step.kind === 'progress' ? step.progress : undefined });
    expect(resumed).toEqual({ kind: 'done', results: computeResults(changed) });
  });
});
