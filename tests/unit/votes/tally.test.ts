import { describe, expect, it } from 'vitest';
import { addTally, countVotes, tallyDifference } from '#lib/votes/tally';
import { plainTally } from './helpers';

describe('tallies', () => {
  it('counts votes per idea and opinion', () => {
    const votes = [
      { ideaId: 1, opinion: 'yes' },
      { ideaId: 1, opinion: 'yes' },
      { ideaId: 1, opinion: 'no' },
      { ideaId: 2, opinion: 'no' },
    ];
    expect(plainTally(countVotes(votes))).toEqual({ 1: { yes: 2, no: 1 }, 2: { no: 1 } });
  });

  it('leaves out zero entries and empty ideas in a difference', () => {
    const before = [
      { ideaId: 1, opinion: 'yes' },
      { ideaId: 2, opinion: 'yes' },
    ];
    const after = [
      { ideaId: 1, opinion: 'yes' },
      { ideaId: 2, opinion: 'no' },
    ];
    expect(plainTally(tallyDifference(before, after))).toEqual({ 2: { yes: -1, no: 1 } });
  });

  it('adds deltas into running counters and drops counters that reach zero', () => {
    const running = countVotes([{ ideaId: 1, opinion: 'yes' }]);
    addTally(running, tallyDifference([{ ideaId: 1, opinion: 'yes' }], [{ ideaId: 3, opinion: 'no' }]));
    expect(plainTally(running)).toEqual({ 3: { no: 1 } });
  });

  it('treats __proto__ as an ordinary opinion', () => {
    const tally = countVotes([{ ideaId: 1, opinion: '__proto__' }]);
    expect(Object.keys(tally.get(1) ?? {})).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(tally.get(1), '__proto__')?.value).toBe(1);
  });
});
