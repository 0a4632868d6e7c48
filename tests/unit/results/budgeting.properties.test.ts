/**
 * Property tests of the budgeting rules on small random instances (<= 8 ideas, <= 12 voters), with
 * fixed seeds and bounded runs so that a failure reproduces and the unit layer stays fast. The checks use
 * their own oracles (mes-reference.ts, a payment replay, a brute-force EJR check), not lib/results.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BudgetInput } from '#lib/results/approvals';
import { type EqualSharesOptions, equalShares, equalSharesRun } from '#lib/results/equal-shares';
import { greedyWinners } from '#lib/results/greedy';
import { Frac, type RefUtility, referenceEqualShares, referenceRun } from './mes-reference';

const RUNS = { seed: 20261123, numRuns: 150 } as const;

const instanceArb = (costArb: fc.Arbitrary<number>, maxVoters = 12): fc.Arbitrary<BudgetInput & { ideas: { id: number; cost: number }[]; ballots: number[][] }> =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 2, maxLength: 8 })
    .chain((ids) =>
      fc.record({
        ideas: fc.tuple(...ids.map((id) => costArb.map((cost) => ({ id, cost })))),
        ballots: fc.array(fc.subarray(ids), { minLength: 1, maxLength: maxVoters }),
        budget: fc.integer({ min: 0, max: 50 }),
      }),
    );

// Costs small enough that a budget buys a few ideas, but seldom all; now and then a free idea, and
// often equal costs, so that the tie-breaking rules are exercised.
const costArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.constantFrom(6, 12) },
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 30 }) },
);
const instances = instanceArb(costArb);

const approvedIds = (input: BudgetInput): Set<number> => new Set(input.ballots.flat().filter((id) => input.ideas.some((i) => i.id === id)));
const costOf = (input: BudgetInput, ids: number[]): number =>
  ids.reduce((sum, id) => sum + input.ideas.find((idea) => idea.id === id)!.cost, 0);
const allApprovedFit = (input: BudgetInput): boolean => costOf(input, [...approvedIds(input)]) <= input.budget;

const VARIANTS: Array<{ utility: RefUtility; completion: 'add-one' | 'none' }> = [
  { utility: 'approval', completion: 'add-one' },
  { utility: 'approval', completion: 'none' },
  { utility: 'cost', completion: 'add-one' },
  { utility: 'cost', completion: 'none' },
];

describe('greedy', () => {
  it('never exceeds the budget, funds only ideas with votes, and leaves no idea with a vote that still fits', () => {
    fc.assert(
      fc.property(instances, (input) => {
        const { ideaIds, spent } = greedyWinners(input);
        const approved = approvedIds(input);
        expect(spent).toBe(costOf(input, ideaIds));
        expect(spent).toBeLessThanOrEqual(input.budget);
        expect(new Set(ideaIds).size).toBe(ideaIds.length);
        for (const id of ideaIds) expect(approved.has(id)).toBe(true);
        for (const id of approved) if (!ideaIds.includes(id)) expect(spent + costOf(input, [id])).toBeGreaterThan(input.budget);
      }),
      RUNS,
    );
  });
});

describe('Method of Equal Shares', () => {
  for (const variant of VARIANTS) {
    it(`${variant.utility} utilities, completion ${variant.completion}: equals the brute-force reference and fits the budget`, () => {
      fc.assert(
        fc.property(instances, (input) => {
          const got = equalShares(input, variant as EqualSharesOptions);
          const want = referenceEqualShares(input, variant.utility, variant.completion);
          expect(got.spent).toBeLessThanOrEqual(input.budget);
          expect(got.spent).toBe(costOf(input, got.ideaIds));
          if (variant.completion === 'add-one' && allApprovedFit(input) && input.ballots.length > 0) {
            // Documented shortcut: the same ideas, bought in one run with the total per voter.
            expect([...got.ideaIds].sort((a, b) => a - b)).toEqual([...want.ideaIds].sort((a, b) => a - b));
          } else {
            expect(got.ideaIds).toEqual(want.ideaIds);
            expect(got.purchases.map((p) => p.maxPayment)).toEqual(want.prices);
            expect(got.endowment).toBe(want.endowment);
          }
        }),
        RUNS,
      );
    });
  }

  it('medium instances (up to 60 voters, large costs): one run equals the reference at several shares per voter', () => {
    // Larger numbers than above, so that prices have long fractions and the floating-point screening in
    // lib/results is exercised where it could be wrong; single runs keep the reference affordable.
    const medium = fc
      .uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 8 })
      .chain((ids) =>
        fc.record({
          ideas: fc.tuple(...ids.map((id) => fc.integer({ min: 100, max: 5000 }).map((cost) => ({ id, cost })))),
          ballots: fc.array(fc.subarray(ids, { minLength: 1, maxLength: Math.min(4, ids.length) }), { minLength: 20, maxLength: 60 }),
          budget: fc.integer({ min: 1000, max: 20000 }),
          extra: fc.integer({ min: 0, max: 400 }),
          utility: fc.constantFrom<RefUtility>('approval', 'cost'),
        }),
      );
    fc.assert(
      fc.property(medium, ({ extra, utility, ...input }) => {
        const endowment = new Frac(BigInt(input.budget + extra * input.ballots.length), BigInt(input.ballots.length));
        const got = equalSharesRun(input, endowment.toString(), utility);
        const want = referenceRun(input, endowment, utility);
        expect(got.ideaIds).toEqual(want.ideaIds);
        expect(got.purchases.map((p) => p.maxPayment)).toEqual(want.prices);
      }),
      { seed: 20261123, numRuns: 25 },
    );
  });

  it('is affordable: replaying the purchases, supporters pay min(own budget, price), which covers each cost exactly, and at the end nothing left is affordable', () => {
    fc.assert(
      fc.property(instances, fc.constantFrom<RefUtility>('approval', 'cost'), (input, utility) => {
        const result = equalShares(input, { utility });
        if (input.ballots.length === 0) return;
        const [num, den = '1'] = result.endowment.split('/');
        const budgets = input.ballots.map(() => new Frac(BigInt(num!), BigInt(den)));
        const zero = new Frac(0n);
        for (const { ideaId, maxPayment } of result.purchases) {
          const [pn, pd = '1'] = maxPayment.split('/');
          const price = new Frac(BigInt(pn!), BigInt(pd));
          let paid = zero;
          input.ballots.forEach((ballot, voter) => {
            if (!ballot.includes(ideaId)) return;
            const pay = budgets[voter]!.min(price);
            budgets[voter] = budgets[voter]!.minus(pay);
            paid = paid.plus(pay);
          });
          expect(paid.cmp(new Frac(BigInt(costOf(input, [ideaId]))))).toBe(0);
        }
        for (const budget of budgets) expect(budget.cmp(zero)).toBeGreaterThanOrEqual(0);
        for (const id of approvedIds(input)) {
          if (result.ideaIds.includes(id)) continue;
          const held = input.ballots.reduce((sum, ballot, voter) => (ballot.includes(id) ? sum.plus(budgets[voter]!) : sum), zero);
          expect(held.cmp(new Frac(BigInt(costOf(input, [id]))))).toBe(-1);
        }
      }),
      RUNS,
    );
  });

  it('completion keeps a run with at least budget/voters each, and one step more would overspend unless it is exhaustive', () => {
    fc.assert(
      fc.property(instances, (input) => {
        if (input.ballots.length === 0 || allApprovedFit(input)) return;
        const result = equalShares(input);
        const [num, den = '1'] = result.endowment.split('/');
        const endowment = new Frac(BigInt(num!), BigInt(den));
        expect(endowment.cmp(new Frac(BigInt(input.budget), BigInt(input.ballots.length)))).toBeGreaterThanOrEqual(0);
        const left = input.budget - result.spent;
        const exhaustive = [...approvedIds(input)].every((id) => result.ideaIds.includes(id) || costOf(input, [id]) > left);
        if (!exhaustive) expect(equalSharesRun(input, endowment.plus(new Frac(1n)).toString()).spent).toBeGreaterThan(input.budget);
      }),
      RUNS,
    );
  });

  it('does not depend on the order of ballots or ideas', () => {
    fc.assert(
      fc.property(
        instances.chain((input) =>
          fc.tuple(fc.constant(input), fc.shuffledSubarray(input.ballots, { minLength: input.ballots.length }), fc.shuffledSubarray(input.ideas, { minLength: input.ideas.length })),
        ),
        ([input, ballots, ideas]) => {
          expect(equalShares({ ...input, ballots, ideas })).toEqual(equalShares(input));
          expect(greedyWinners({ ...input, ballots, ideas })).toEqual(greedyWinners(input));
        },
      ),
      RUNS,
    );
  });

  // Unit costs and approval utilities (multiwinner voting): MES satisfies extended justified
  // representation (Peters & Skowron 2020). A group S of voters is l-cohesive when |S| >= l * n / budget
  // and they all approve at least l common ideas; then some member approves at least l winners. The
  // proof holds for every virtual budget >= budget / n that ends a run, so also after the completion.
  it('unit costs: the completed outcome satisfies EJR (checked over every group of voters)', () => {
    const unit = instanceArb(fc.constant(1), 9).filter((input) => input.ballots.length > 0);
    fc.assert(
      fc.property(unit, (input) => {
        const winners = new Set(equalShares(input).ideaIds);
        const n = input.ballots.length;
        for (let mask = 1; mask < 1 << n; mask += 1) {
          const group = input.ballots.filter((_, voter) => mask & (1 << voter));
          const common = input.ideas.filter((idea) => group.every((ballot) => ballot.includes(idea.id))).length;
          for (let l = 1; l <= common; l += 1) {
            if (group.length * input.budget < l * n) break; // not l-cohesive, nor for a larger l
            const best = Math.max(...group.map((ballot) => ballot.filter((id) => winners.has(id)).length));
            expect(best, `group ${mask.toString(2)} is ${l}-cohesive`).toBeGreaterThanOrEqual(l);
          }
        }
      }),
      { seed: 20261123, numRuns: 100 },
    );
  });
});
