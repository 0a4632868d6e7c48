import { describe, expect, it } from 'vitest';
import { planRound } from '#lib/votes/round';
import type { CastVote, VotesConfig } from '#lib/votes/types';
import { asPairs, expectApiError, held, ideaMap, plainTally, votesConfig } from './helpers';

const yes = (...ids: number[]): CastVote[] => ids.map((ideaId) => ({ ideaId, opinion: 'yes' }));

const ideas = ideaMap(
  { id: 1, budget: 300, theme: 'green' },
  { id: 2, budget: 500, theme: 'green' },
  { id: 3, budget: 400, theme: 'traffic' },
  { id: 4, budget: null, theme: 'traffic' },
  { id: 5, budget: 100, theme: 'culture' },
  { id: 6, budget: 100, theme: null },
);

const count = (overrides: Partial<VotesConfig> = {}) =>
  votesConfig({ voteType: 'count', withExisting: 'replace', minIdeas: 1, maxIdeas: 3, ...overrides });

describe('planRound: withExisting', () => {
  it('accepts a first round under every mode', () => {
    for (const withExisting of ['error', 'replace', 'merge'] as const) {
      const plan = planRound({ config: count({ withExisting }), existing: [], round: yes(1, 2), ideas });
      expect(plan.next).toEqual(yes(1, 2));
      expect(plan.added).toEqual(yes(1, 2));
      expect(plan.removed).toEqual([]);
      expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: 1 }, 2: { yes: 1 } });
    }
  });

  it('error: a user who holds votes gets 409 Conflict', () => {
    const err = expectApiError(
      () => planRound({ config: count({ withExisting: 'error' }), existing: [held(1)], round: yes(2), ideas }),
      409,
      'Conflict',
    );
    expect(err.message).toMatch(/already voted/);
  });

  it('replace: the round replaces every earlier vote', () => {
    const a = held(1);
    const b = held(2);
    const plan = planRound({ config: count(), existing: [a, b], round: yes(3), ideas });
    expect(plan.next).toEqual(yes(3));
    expect(plan.added).toEqual(yes(3));
    expect(plan.removed).toEqual([a, b]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: -1 }, 2: { yes: -1 }, 3: { yes: 1 } });
  });

  it('replace: an idea voted again with the same opinion keeps its record and is not counted twice', () => {
    const a = held(1);
    const b = held(2);
    const plan = planRound({ config: count(), existing: [a, b], round: yes(2, 3), ideas });
    expect(plan.next).toEqual([{ ideaId: 2, opinion: 'yes', keep: b }, { ideaId: 3, opinion: 'yes' }]);
    expect(plan.added).toEqual(yes(3));
    expect(plan.removed).toEqual([a]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: -1 }, 3: { yes: 1 } });
  });

  it('replace: an identical round changes nothing', () => {
    const a = held(1);
    const plan = planRound({ config: count(), existing: [a], round: yes(1), ideas });
    expect(plan.next).toEqual([{ ideaId: 1, opinion: 'yes', keep: a }]);
    expect(plan.added).toEqual([]);
    expect(plan.removed).toEqual([]);
    expect(plan.tallyDeltas.size).toBe(0);
  });

  it('replace: an idea voted again with another opinion is removed and added', () => {
    const a = held(1, 'yes');
    const plan = planRound({ config: count(), existing: [a], round: [{ ideaId: 1, opinion: 'no' }], ideas });
    expect(plan.next).toEqual([{ ideaId: 1, opinion: 'no' }]);
    expect(plan.removed).toEqual([a]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: -1, no: 1 } });
  });

  it('merge: the round is added to the held votes', () => {
    const a = held(1);
    const plan = planRound({ config: count({ withExisting: 'merge' }), existing: [a], round: yes(3), ideas });
    expect(plan.next).toEqual([{ ideaId: 1, opinion: 'yes', keep: a }, { ideaId: 3, opinion: 'yes' }]);
    expect(plan.added).toEqual(yes(3));
    expect(plan.removed).toEqual([]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 3: { yes: 1 } });
  });

  it('merge: a round that names a held idea is a 409', () => {
    const err = expectApiError(
      () => planRound({ config: count({ withExisting: 'merge' }), existing: [held(1)], round: yes(3, 1), ideas }),
      409,
      'Conflict',
    );
    expect(err.message).toMatch(/idea 1\b/);
  });

  it('merge: the combined set must obey maxIdeas', () => {
    const err = expectApiError(
      () =>
        planRound({
          config: count({ withExisting: 'merge', maxIdeas: 2 }),
          existing: [held(1), held(2)],
          round: yes(3),
          ideas,
        }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Number of ideas 3 is above the maximum of 2');
  });
});

describe('planRound: count limits', () => {
  it('accepts a set at both ends of minIdeas..maxIdeas', () => {
    expect(planRound({ config: count({ minIdeas: 2, maxIdeas: 3 }), existing: [], round: yes(1, 2), ideas }).next).toHaveLength(2);
    expect(planRound({ config: count({ minIdeas: 2, maxIdeas: 3 }), existing: [], round: yes(1, 2, 3), ideas }).next).toHaveLength(3);
  });

  it('rejects too few ideas with path ""', () => {
    const err = expectApiError(
      () => planRound({ config: count({ minIdeas: 2 }), existing: [], round: yes(1), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.details?.[0]?.message).toBe('Number of ideas 1 is below the minimum of 2');
  });

  it('rejects too many ideas with path ""', () => {
    const err = expectApiError(
      () => planRound({ config: count({ maxIdeas: 2 }), existing: [], round: yes(1, 2, 3), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.details?.[0]?.message).toBe('Number of ideas 3 is above the maximum of 2');
  });

  it('checks the limits on the set after replace, not on the old set', () => {
    const config = count({ minIdeas: 2, maxIdeas: 2 });
    expectApiError(() => planRound({ config, existing: [held(1), held(2)], round: yes(3), ideas }), 400, 'ValidationError', ['']);
  });

  it('ignores budgets', () => {
    const plan = planRound({ config: count({ maxBudget: 10, minBudget: 5000 }), existing: [], round: yes(1, 2), ideas });
    expect(plan.next).toHaveLength(2);
  });
});

describe('planRound: budgeting', () => {
  const budgeting = (overrides: Partial<VotesConfig> = {}) =>
    votesConfig({ voteType: 'budgeting', withExisting: 'replace', minIdeas: 1, maxIdeas: 10, minBudget: 200, maxBudget: 1000, ...overrides });

  it('accepts a budget at both ends of minBudget..maxBudget', () => {
    expect(planRound({ config: budgeting({ minBudget: 800 }), existing: [], round: yes(1, 2), ideas }).added).toHaveLength(2);
    expect(planRound({ config: budgeting({ maxBudget: 800 }), existing: [], round: yes(1, 2), ideas }).added).toHaveLength(2);
  });

  it('rejects a budget above the maximum', () => {
    const err = expectApiError(
      () => planRound({ config: budgeting(), existing: [], round: yes(1, 2, 3), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Budget 1200 is above the maximum of 1000');
  });

  it('rejects a budget below the minimum', () => {
    const err = expectApiError(
      () => planRound({ config: budgeting({ minBudget: 350 }), existing: [], round: yes(1), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Budget 300 is below the minimum of 350');
  });

  it('counts an idea without a budget as 0', () => {
    expectApiError(() => planRound({ config: budgeting(), existing: [], round: yes(4), ideas }), 400, 'ValidationError', ['']);
    expect(planRound({ config: budgeting({ minBudget: null }), existing: [], round: yes(4), ideas }).added).toEqual(yes(4));
  });

  it('skips budget limits that are not set', () => {
    const config = budgeting({ minBudget: null, maxBudget: undefined });
    expect(planRound({ config, existing: [], round: yes(1, 2, 3, 5), ideas }).added).toHaveLength(4);
  });

  it('reports the count and the budget limits together', () => {
    expectApiError(
      () => planRound({ config: budgeting({ maxIdeas: 2 }), existing: [], round: yes(1, 2, 3), ideas }),
      400,
      'ValidationError',
      ['', ''],
    );
  });

  it('checks the budget of the merged set', () => {
    const config = budgeting({ withExisting: 'merge' });
    const err = expectApiError(() => planRound({ config, existing: [held(2)], round: yes(1, 3), ideas }), 400, 'ValidationError', ['']);
    expect(err.message).toBe('Budget 1200 is above the maximum of 1000');
  });

  it('counts a held vote on a vanished idea as budget 0 under merge', () => {
    const config = budgeting({ withExisting: 'merge', maxIdeas: 2 });
    const plan = planRound({ config, existing: [held(77)], round: yes(2), ideas });
    expect(asPairs(plan.next)).toEqual(['2:yes', '77:yes']);
    expectApiError(() => planRound({ config, existing: [held(77), held(5)], round: yes(2), ideas }), 400, 'ValidationError', ['']);
  });

  it('ignores themes', () => {
    const config = budgeting({ themes: [{ value: 'green', maxIdeas: 1, maxBudget: 1 }] });
    expect(planRound({ config, existing: [], round: yes(1, 2, 6), ideas }).added).toHaveLength(3);
  });
});

describe('planRound: count-per-theme', () => {
  const perTheme = (overrides: Partial<VotesConfig> = {}) =>
    votesConfig({
      voteType: 'count-per-theme',
      withExisting: 'replace',
      minIdeas: 1,
      maxIdeas: 10,
      themes: [
        { value: 'green', minIdeas: 2, maxIdeas: 2, maxBudget: 1 },
        { value: 'traffic', maxIdeas: 1 },
        { value: 'culture' },
      ],
      ...overrides,
    });

  it('accepts a set within every theme it touches, ignoring theme budgets', () => {
    expect(planRound({ config: perTheme(), existing: [], round: yes(1, 2, 3), ideas }).added).toHaveLength(3);
  });

  it('does not check a theme with a minimum that gets no votes', () => {
    expect(planRound({ config: perTheme(), existing: [], round: yes(5), ideas }).added).toEqual(yes(5));
  });

  it('rejects a theme above its maxIdeas, naming the theme', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme(), existing: [], round: yes(3, 4), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Theme "traffic": number of ideas 2 is above the maximum of 1');
  });

  it('rejects a theme below its minIdeas', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme(), existing: [], round: yes(1, 5), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Theme "green": number of ideas 1 is below the minimum of 2');
  });

  it('still applies the overall minIdeas/maxIdeas', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme({ maxIdeas: 2 }), existing: [], round: yes(1, 2, 3), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Number of ideas 3 is above the maximum of 2');
  });

  it('rejects an idea whose theme is not configured, or that has none, with path [i].ideaId', () => {
    const config = perTheme({ themes: [{ value: 'green' }] });
    const err = expectApiError(
      () => planRound({ config, existing: [], round: yes(1, 3, 6), ideas }),
      400,
      'ValidationError',
      ['[1].ideaId', '[2].ideaId'],
    );
    expect(err.details?.map((d) => d.message)).toEqual([
      'Idea 3 has theme "traffic", which is not one of the voting themes',
      'Idea 6 has no theme, so it cannot be voted for per theme',
    ]);
  });

  it('rejects every idea when no themes are configured', () => {
    expectApiError(
      () => planRound({ config: perTheme({ themes: undefined }), existing: [], round: yes(1, 5), ideas }),
      400,
      'ValidationError',
      ['[0].ideaId', '[1].ideaId'],
    );
  });

  it('checks the themes of the merged set, skipping held ideas that match no theme', () => {
    const config = perTheme({ withExisting: 'merge' });
    // Held idea 6 has no theme: it counts overall but no theme check applies to it.
    expect(asPairs(planRound({ config, existing: [held(6)], round: yes(5), ideas }).next)).toEqual(['5:yes', '6:yes']);
    expectApiError(() => planRound({ config, existing: [held(3)], round: yes(4), ideas }), 400, 'ValidationError', ['']);
  });
});

describe('planRound: budgeting-per-theme', () => {
  const perTheme = (overrides: Partial<VotesConfig> = {}) =>
    votesConfig({
      voteType: 'budgeting-per-theme',
      withExisting: 'replace',
      minIdeas: 1,
      maxIdeas: 10,
      themes: [
        { value: 'green', minBudget: 400, maxBudget: 600 },
        { value: 'traffic', maxBudget: 400, maxIdeas: 1 },
        { value: 'culture', minBudget: 50 },
      ],
      ...overrides,
    });

  it('accepts budgets within every theme it touches', () => {
    expect(planRound({ config: perTheme(), existing: [], round: yes(2, 3, 5), ideas }).added).toHaveLength(3);
  });

  it('rejects a theme budget above its maximum, naming theme and limit', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme(), existing: [], round: yes(1, 2), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Theme "green": budget 800 is above the maximum of 600');
  });

  it('rejects a theme budget below its minimum', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme(), existing: [], round: yes(1), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Theme "green": budget 300 is below the minimum of 400');
  });

  it('checks the theme idea counts too', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme(), existing: [], round: yes(3, 4), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Theme "traffic": number of ideas 2 is above the maximum of 1');
  });

  it('does not check untouched themes with a minimum budget', () => {
    expect(planRound({ config: perTheme(), existing: [], round: yes(3), ideas }).added).toEqual(yes(3));
  });

  it('applies the overall budget limits when set', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme({ maxBudget: 800 }), existing: [], round: yes(2, 3, 5), ideas }),
      400,
      'ValidationError',
      [''],
    );
    expect(err.message).toBe('Budget 1000 is above the maximum of 800');
  });

  it('reports several theme problems in themes order', () => {
    const err = expectApiError(
      () => planRound({ config: perTheme(), existing: [], round: yes(3, 4, 1), ideas }),
      400,
      'ValidationError',
      ['', ''],
    );
    expect(err.details?.map((d) => d.message)).toEqual([
      'Theme "green": budget 300 is below the minimum of 400',
      'Theme "traffic": number of ideas 2 is above the maximum of 1',
    ]);
  });
});
