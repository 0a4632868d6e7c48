/**
 * The Method of Equal Shares (MES) for budgeting votes, with the add-one completion. References: Peters,
 * Pierczyński, Skowron, "Proportional participatory budgeting with additive utilities" (NeurIPS 2021);
 * https://equalshares.net/explanation and /implementation/completion; pabutools' `method_of_equal_shares`
 * with `voter_budget_increment` (docs/results.md walks through an example).
 *
 * One run, for a virtual budget `e` per voter (lib/results/mes-run.ts computes it):
 * 1. Every ballot gets `e` (every ballot counted, also one whose ideas cannot win).
 * 2. An idea is affordable when its supporters together still hold at least its cost. Its price `ρ` is
 *    the smallest amount such that, when every supporter pays `min(own budget, ρ)`, the cost is covered
 *    ("split as equally as possible"; the poorest pay what they have, the rest pay `ρ` each).
 * 3. Buy the affordable idea with the lowest `ρ` per unit of utility: with approval utilities (the
 *    CONTRACT's) a supporter's utility is 1, so the lowest `ρ`; with cost utilities (what equalshares.net
 *    computes) it is the idea's cost, so the lowest `ρ / cost` ("highest effective vote count"). Ties, in
 *    this order: lower cost, more votes, lower id (equalshares.net's recommendation, with the lot
 *    replaced by the id so the answer is deterministic and the same in every completion run).
 * 4. Charge the supporters, repeat until nothing is affordable. Ideas of cost 0 with a vote are bought
 *    first, for free.
 * The outcome is the exact one (mes-run.ts decides in floats only what their error bounds certify).
 *
 * Add-one completion: one run with `e = budget / voters` usually leaves money unspent, so runs are
 * repeated with `e + step`, `e + 2·step`, ... (`step` = 1 currency unit per voter by default) and the
 * last run whose ideas still fit the real budget is kept; the search stops early at a run that is
 * exhaustive (no unchosen idea with a vote fits what is left). When all ideas with a vote fit the budget
 * together, the answer is all of them (where the search would end anyway), bought in one run with the
 * total cost per voter. The first run never exceeds the budget (its voters hold exactly the budget), so
 * there is always a run to keep. To bound the work on sites with few voters and a large budget, the step
 * doubles after every `runsPerStep` runs (default 1000); below that, the search is exactly the one of
 * the references. Optionally (`greedyFill`, off by default, as the CONTRACT asks for add-one completion
 * only) what is still left is then filled by the greedy rule, as equalshares.net's tool does by default
 * ("add1u").
 *
 * The search is resumable: `startEqualShares` / `continueEqualShares` keep everything it needs in a
 * small, JSON-safe `EqualSharesSearch` (the kept run, the next share to try, the step), so a background
 * job can stop at its deadline and a later run carry on from there over the same ballots.
 */
import type { BudgetInput } from '#lib/results/approvals';
import { fillGreedily, type Winners } from '#lib/results/greedy';
import { runEqualShares, type Purchase, type RunOutcome, type Utility } from '#lib/results/mes-run';
import { buildProfile, type Profile } from '#lib/results/profile';
import { type Rational, add, format, parse, rational } from '#lib/results/rational';

export { toFloat } from '#lib/results/rational';
export type { Utility } from '#lib/results/mes-run';

export interface EqualSharesOptions {
  /** 'approval' (default, CONTRACT): utility 1 per approved idea; 'cost': the idea's cost. */
  utility?: Utility;
  /** 'add-one' (default) or 'none' (a single run with budget / voters per voter). */
  completion?: 'add-one' | 'none';
  /** Whole currency units added per voter between completion runs; default 1. */
  stepPerVoter?: number;
  /** Completion runs after which the step doubles; default 1000. */
  runsPerStep?: number;
  /** Fill what the completion leaves with the greedy rule; default false. */
  greedyFill?: boolean;
}

interface EqualSharesRun extends Winners {
  /** The ideas in the order bought, with their price. */
  purchases: Purchase[];
}

interface EqualSharesResult extends Winners {
  /** The virtual budget per voter of the run that was kept ("n/d"); "0" without voters. */
  endowment: string;
  /** Purchases of the kept run (the greedy fill adds none). */
  purchases: Purchase[];
  /** How many runs the completion made. */
  runs: number;
  /** Ids the greedy fill added (empty unless `greedyFill`). */
  filled: number[];
}

/** Where a completion search stands; JSON-safe, so a job can store it and go on later. */
export interface EqualSharesSearch {
  /** The share per voter of the kept run ("n/d"), and what that run bought. */
  endowment: string;
  kept: Winners;
  /** The share of the next run to try ("n/d"); null once the search has ended. */
  next: string | null;
  /** What the following step adds per voter (whole units; doubles every `runsPerStep` runs). */
  increment: string;
  runs: number;
}

function wholeOption(value: number | undefined, fallback: number, what: string): number {
  const result = value ?? fallback;
  if (!Number.isSafeInteger(result) || result < 1) throw new RangeError(`${what} must be a whole number >= 1`);
  return result;
}

const winnersOf = (run: RunOutcome): Winners => ({ ideaIds: run.ideaIds, spent: run.spent });

/** No unchosen idea with a vote fits in what is left. */
function isExhaustive(profile: Profile, run: Winners): boolean {
  const chosen = new Set(run.ideaIds);
  const left = profile.budget - run.spent;
  return profile.ideas.every((idea) => chosen.has(idea.id) || idea.cost > left);
}

/** One MES run with the given virtual budget per voter ("n/d"); for tests and worked examples. */
export function equalSharesRun(input: BudgetInput, endowment: string, utility: Utility = 'approval'): EqualSharesRun {
  const run = runEqualShares(buildProfile(input), parse(endowment), utility, true);
  return { ideaIds: run.ideaIds, spent: run.spent, purchases: run.purchases! };
}

/** The first run (and the one-run shortcuts); the search then goes on with `continueEqualShares`. */
export function startEqualShares(profile: Profile, options: EqualSharesOptions = {}): EqualSharesSearch {
  const utility = options.utility ?? 'approval';
  const step = BigInt(wholeOption(options.stepPerVoter, 1, 'stepPerVoter'));
  wholeOption(options.runsPerStep, 1000, 'runsPerStep');
  if (profile.voters === 0) return { endowment: '0', kept: { ideaIds: [], spent: 0 }, next: null, increment: `${step}`, runs: 0 };
  const base = rational(BigInt(profile.budget), BigInt(profile.voters));
  const first = winnersOf(runEqualShares(profile, base, utility));
  const done = { endowment: format(base), kept: first, next: null, increment: `${step}`, runs: 1 };
  if (options.completion === 'none' || isExhaustive(profile, first)) return done;
  const total = profile.ideas.reduce((sum, idea) => sum + idea.cost, 0);
  if (total <= profile.budget) {
    // Every run is feasible, so the search would end at the first run that buys everything. A run
    // where every voter holds the total buys everything too (any supporter can pay any idea at any
    // time), in one step instead of thousands; only the purchase order may differ.
    const all = rational(BigInt(total));
    return { endowment: format(all), kept: winnersOf(runEqualShares(profile, all, utility)), next: null, increment: `${step}`, runs: 2 };
  }
  // Ends: a run where every voter holds `total` buys every idea, which exceeds the budget.
  return { ...done, next: format(add(base, rational(step))) };
}

/**
 * Runs the completion on from `search` until it ends or `stop()` says so (checked after each run, so
 * every call makes progress; a run takes milliseconds to a fraction of a second). Pure: the same
 * ballots and state give the same steps.
 */
export function continueEqualShares(profile: Profile, search: EqualSharesSearch, options: EqualSharesOptions = {}, stop: () => boolean = () => false): EqualSharesSearch {
  const utility = options.utility ?? 'approval';
  const runsPerStep = wholeOption(options.runsPerStep, 1000, 'runsPerStep');
  let { endowment, kept, next, runs } = search;
  let increment = BigInt(search.increment);
  while (next !== null) {
    if (runs > search.runs && stop()) break;
    const share = parse(next);
    const run = winnersOf(runEqualShares(profile, share, utility));
    runs += 1;
    if (run.spent > profile.budget) {
      next = null;
      break;
    }
    kept = run;
    endowment = next;
    if (isExhaustive(profile, kept)) {
      next = null;
      break;
    }
    if ((runs - 1) % runsPerStep === 0) increment *= 2n;
    next = format(add(share, rational(increment)));
  }
  return { endowment, kept, next, increment: `${increment}`, runs };
}

/** The answer of a finished search: the kept run with its exact prices, and the greedy fill if asked. */
function finishEqualShares(profile: Profile, search: EqualSharesSearch, options: EqualSharesOptions = {}): EqualSharesResult {
  if (search.next !== null) throw new Error('The Equal Shares search has not ended yet');
  if (profile.voters === 0) return { ideaIds: [], spent: 0, endowment: '0', purchases: [], runs: 0, filled: [] };
  const priced: Rational = parse(search.endowment);
  const { purchases } = runEqualShares(profile, priced, options.utility ?? 'approval', true);
  const kept = search.kept;
  const result = options.greedyFill ? fillGreedily(profile.ideas, profile.budget, kept.ideaIds, kept.spent) : kept;
  return {
    ideaIds: result.ideaIds,
    spent: result.spent,
    endowment: search.endowment,
    purchases: purchases!,
    runs: search.runs,
    filled: result.ideaIds.slice(kept.ideaIds.length),
  };
}

/** Equal Shares with the completion, in one go. */
export function equalShares(input: BudgetInput, options: EqualSharesOptions = {}): EqualSharesResult {
  const profile = buildProfile(input);
  return finishEqualShares(profile, continueEqualShares(profile, startEqualShares(profile, options), options), options);
}
