import { describe, expect, it } from 'vitest';
import { planRound } from '#lib/votes/round';
import { asPairs, expectApiError, held, ideaMap, plainTally, votesConfig } from './helpers';

const ideas = ideaMap({ id: 1 }, { id: 2 }, { id: 3 });

describe('planRound: entries (every vote type)', () => {
  it('rejects an empty round with 400', () => {
    expectApiError(() => planRound({ config: votesConfig(), existing: [], round: [], ideas }), 400, 'ValidationError', ['']);
  });

  it('rejects an unknown idea with path [i].ideaId', () => {
    const err = expectApiError(
      () => planRound({ config: votesConfig(), existing: [], round: [{ ideaId: 1, opinion: 'yes' }, { ideaId: 9, opinion: 'yes' }], ideas }),
      400,
      'ValidationError',
      ['[1].ideaId'],
    );
    expect(err.details?.[0]?.message).toBe('Idea 9 does not exist on this site');
  });

  it('rejects an idea sent twice in one round, pointing at the repeat', () => {
    expectApiError(
      () =>
        planRound({
          config: votesConfig({ voteType: 'count', withExisting: 'replace' }),
          existing: [],
          round: [
            { ideaId: 2, opinion: 'yes' },
            { ideaId: 1, opinion: 'yes' },
            { ideaId: 2, opinion: 'no' },
          ],
          ideas,
        }),
      400,
      'ValidationError',
      ['[2].ideaId'],
    );
  });

  it('rejects an opinion outside voteValues with path [i].opinion', () => {
    const config = votesConfig({ voteType: 'count', withExisting: 'replace', voteValues: [{ value: 'yes' }] });
    expectApiError(
      () => planRound({ config, existing: [], round: [{ ideaId: 1, opinion: 'yes' }, { ideaId: 2, opinion: 'no' }], ideas }),
      400,
      'ValidationError',
      ['[1].opinion'],
    );
  });

  it('collects every entry problem in one error', () => {
    const err = expectApiError(
      () =>
        planRound({
          config: votesConfig(),
          existing: [],
          round: [
            { ideaId: 9, opinion: 'maybe' },
            { ideaId: 1, opinion: 'yes' },
          ],
          ideas,
        }),
      400,
      'ValidationError',
      ['[0].ideaId', '[0].opinion'],
    );
    expect(err.message).toMatch(/Idea 9 does not exist.*Opinion "maybe" is not allowed/);
  });

  it('does not look at the held votes when the round itself is invalid', () => {
    // withExisting error + held votes would be 409, but a malformed round is a 400 first.
    const config = votesConfig({ voteType: 'count', withExisting: 'error' });
    expectApiError(
      () => planRound({ config, existing: [held(1)], round: [{ ideaId: 9, opinion: 'yes' }], ideas }),
      400,
      'ValidationError',
      ['[0].ideaId'],
    );
  });
});

describe('planRound: likes', () => {
  const likes = votesConfig({ voteType: 'likes', withExisting: 'error' });

  it('adds a vote on an idea without one', () => {
    const plan = planRound({ config: likes, existing: [], round: [{ ideaId: 1, opinion: 'yes' }], ideas });
    expect(plan.next).toEqual([{ ideaId: 1, opinion: 'yes' }]);
    expect(plan.added).toEqual([{ ideaId: 1, opinion: 'yes' }]);
    expect(plan.removed).toEqual([]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: 1 } });
  });

  it('cancels the vote when the same opinion is sent again', () => {
    const vote = held(1, 'yes');
    const plan = planRound({ config: likes, existing: [vote], round: [{ ideaId: 1, opinion: 'yes' }], ideas });
    expect(plan.next).toEqual([]);
    expect(plan.added).toEqual([]);
    expect(plan.removed).toEqual([vote]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: -1 } });
  });

  it('swaps the vote when the other opinion is sent', () => {
    const vote = held(1, 'yes');
    const plan = planRound({ config: likes, existing: [vote], round: [{ ideaId: 1, opinion: 'no' }], ideas });
    expect(plan.next).toEqual([{ ideaId: 1, opinion: 'no' }]);
    expect(plan.added).toEqual([{ ideaId: 1, opinion: 'no' }]);
    expect(plan.removed).toEqual([vote]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: -1, no: 1 } });
  });

  it('keeps votes on ideas outside the round, with their records', () => {
    const other = held(2, 'no');
    const plan = planRound({ config: likes, existing: [other], round: [{ ideaId: 1, opinion: 'yes' }], ideas });
    expect(plan.next).toEqual([
      { ideaId: 2, opinion: 'no', keep: other },
      { ideaId: 1, opinion: 'yes' },
    ]);
    expect(plan.removed).toEqual([]);
  });

  it('toggles several ideas in one round', () => {
    const a = held(1, 'yes');
    const b = held(2, 'yes');
    const plan = planRound({
      config: likes,
      existing: [a, b],
      round: [
        { ideaId: 1, opinion: 'yes' },
        { ideaId: 2, opinion: 'no' },
        { ideaId: 3, opinion: 'yes' },
      ],
      ideas,
    });
    expect(asPairs(plan.next)).toEqual(['2:no', '3:yes']);
    expect(plan.removed).toEqual([a, b]);
    expect(plainTally(plan.tallyDeltas)).toEqual({ 1: { yes: -1 }, 2: { yes: -1, no: 1 }, 3: { yes: 1 } });
  });

  it.each(['error', 'replace', 'merge'] as const)('ignores withExisting=%s', (withExisting) => {
    const config = votesConfig({ voteType: 'likes', withExisting });
    const plan = planRound({ config, existing: [held(2)], round: [{ ideaId: 1, opinion: 'yes' }], ideas });
    expect(asPairs(plan.next)).toEqual(['1:yes', '2:yes']);
  });

  it('does not apply minIdeas/maxIdeas', () => {
    const config = votesConfig({ voteType: 'likes', minIdeas: 2, maxIdeas: 1 });
    const plan = planRound({
      config,
      existing: [held(1), held(2)],
      round: [{ ideaId: 3, opinion: 'yes' }],
      ideas,
    });
    expect(plan.next).toHaveLength(3);
  });

  it('always allows yes and no, even when voteValues does not list them', () => {
    const config = votesConfig({ voteType: 'likes', voteValues: [{ value: 'up' }] });
    const plan = planRound({
      config,
      existing: [],
      round: [
        { ideaId: 1, opinion: 'yes' },
        { ideaId: 2, opinion: 'no' },
        { ideaId: 3, opinion: 'up' },
      ],
      ideas,
    });
    expect(plan.added).toHaveLength(3);
    expectApiError(
      () => planRound({ config, existing: [], round: [{ ideaId: 1, opinion: 'maybe' }], ideas }),
      400,
      'ValidationError',
      ['[0].opinion'],
    );
  });

  it('clears every held vote on a toggled idea should the ballot hold duplicates', () => {
    const a = held(1, 'yes');
    const b = held(1, 'no');
    const plan = planRound({ config: likes, existing: [a, b], round: [{ ideaId: 1, opinion: 'yes' }], ideas });
    expect(plan.next).toEqual([]);
    expect(plan.removed).toEqual([a, b]);
  });
});
