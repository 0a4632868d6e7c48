/**
 * One run of the Method of Equal Shares (lib/results/mes-run.ts) where its float pricing cannot decide
 * and the exact fractions must: supporters holding a hair less than an idea's cost, and a supporter
 * whose budget equals the price, on a run that makes more budget classes than its first allocation
 * holds (every class then still carries its budget and its chain of purchases). The outcomes are
 * worked out by hand from the rule (docs/results.md): each idea costs what its supporters pay, the
 * ones holding less than the price pay all they have.
 */
import { describe, expect, it } from 'vitest';
import { equalSharesRun } from '#lib/results/equal-shares';

describe('supporters who hold about what an idea costs', () => {
  const input = { ideas: [{ id: 1, cost: 1 }], ballots: [[1], [1], [1]], budget: 1 };

  it('holding exactly its cost between them, they buy it, each paying all they have', () => {
    expect(equalSharesRun(input, '1/3')).toEqual({ ideaIds: [1], spent: 1, purchases: [{ ideaId: 1, maxPayment: '1/3' }] });
    expect(equalSharesRun(input, '1/3', 'cost')).toEqual({ ideaIds: [1], spent: 1, purchases: [{ ideaId: 1, maxPayment: '1/3' }] });
  });

  it('holding 3·10⁻²⁰ less than its cost (no float tells the two apart), they cannot buy it', () => {
    const aHairLess = `${10n ** 20n - 1n}/${3n * 10n ** 20n}`;
    expect(equalSharesRun(input, aHairLess)).toEqual({ ideaIds: [], spent: 0, purchases: [] });
    expect(equalSharesRun(input, aHairLess, 'cost')).toEqual({ ideaIds: [], spent: 0, purchases: [] });
  });
});

describe('a run with more budget classes than its first allocation', () => {
  // N voters, each the one supporter of a small idea (idea i costs i), and all of them of one big
  // idea. With 2N each, voter i keeps 2N - i after buying idea i. The small ideas come first (price
  // i against the big idea's N+1 and more): N purchases, each moving its voter to a class of its own.
  // Then the big idea at price ρ = 3N/2: voters N/2+1 .. N hold less and pay all they have, voter N/2
  // holds exactly ρ (a tie only exact fractions decide: spent whole), the others pay ρ. A last idea,
  // of the voters who paid all they had for the big one, is not bought: they hold nothing any more (it
  // costs each of them more than the big idea from the start, and they never held its cost after).
  const N = 1100;
  const BIG = N + 1;
  const LAST = N + 2;
  const LAST_COST = 1_000_000;
  const rho = (3 * N) / 2;
  const poorPay = Array.from({ length: N / 2 }, (_, k) => 2 * N - (N / 2 + 1 + k)).reduce((a, b) => a + b, 0);
  const bigCost = poorPay + (N / 2) * rho;
  const small = Array.from({ length: N }, (_, i) => ({ id: i + 1, cost: i + 1 }));
  const input = {
    ideas: [...small, { id: BIG, cost: bigCost }, { id: LAST, cost: LAST_COST }],
    ballots: small.map(({ id }) => (id > N / 2 ? [id, BIG, LAST] : [id, BIG])),
    budget: 10 * bigCost,
  };

  it('buys every small idea in order of price, then the big one at the price where the poorer supporters pay all they have', () => {
    expect(poorPay).toBe(755_975);
    expect(bigCost).toBe(1_663_475);
    // Before any purchase the big idea costs each supporter more than any small idea does, the last one more still.
    expect(bigCost / N).toBeGreaterThan(N);
    expect(LAST_COST / (N / 2)).toBeGreaterThan(rho);
    // The last idea's voters hold less than its cost once they bought their small ideas.
    expect(poorPay).toBeLessThan(LAST_COST);
    const run = equalSharesRun(input, `${2 * N}`);
    expect(run.ideaIds).toEqual([...small.map((idea) => idea.id), BIG]);
    expect(run.spent).toBe((N * (N + 1)) / 2 + bigCost);
    expect(run.purchases).toEqual([...small.map((idea) => ({ ideaId: idea.id, maxPayment: `${idea.cost}` })), { ideaId: BIG, maxPayment: `${rho}` }]);
  });
});
