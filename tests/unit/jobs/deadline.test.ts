/** A job run's budget: by count without a deadline, by the time left before it with one (lib/jobs/run.ts). */
import { describe, expect, it } from 'vitest';
import { Budget, STOP_BEFORE_DEADLINE_MS } from '#lib/jobs/run';

describe('a job run budget', () => {
  it('counts units without a deadline', () => {
    const budget = new Budget(2);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
    expect(budget.used).toBe(2);
  });

  it('with a deadline, takes units until the time left falls under the margin, whatever the count', () => {
    let left = STOP_BEFORE_DEADLINE_MS + 2;
    const budget = new Budget(Number.POSITIVE_INFINITY, () => left--);
    const taken = [budget.take(), budget.take(), budget.take(), budget.take()];
    expect(taken).toEqual([true, true, true, false]);
    expect(budget.exhausted()).toBe(true);
  });
});
