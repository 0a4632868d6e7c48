/**
 * The Method of Equal Shares (MES) for budgeting votes, with the add-one completion. References: Peters,
 * Pierczyński, Skowron, "Proportional participatory budgeting with additive utilities" (NeurIPS 2021);
 * https://equalshares.net/explanation and /implementation/completion; pabutools' `method_of_equal_shares`
 * with `voter_budget_increment` (docs/results.md walks through an example).
 *
 * One run, for a virtual budget `e` per voter:
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
 * All amounts are exact fractions (rational.ts), so a tie is a tie and never a rounding accident.
 *
 * Add-one completion: one run with `e = budget / voters` usually leaves money unspent, so runs are
 * repeated with `e + step`, `e + 2·step`, ... (`step` = 1 currency unit per voter by default) and the
 * last run whose ideas still fit the real budget is kept; the search stops early at a run that is
 * exhaustive (no unchosen idea with a vote fits what is left). When all ideas with a vote fit the budget
 * together, the answer is all of them (where the search would end anyway), bought in one run with the
 * total cost per voter. The first run never exceeds
 * the budget (its voters hold exactly the budget), so there is always a run to keep. To bound the work on
 * sites with few voters and a large budget, the step doubles after every `runsPerStep` runs
 * (default 1000); below that, the search is exactly the one of the references. Optionally (`greedyFill`,
 * off by default, as the CONTRACT asks for add-one completion only) what is still left is then filled
 * by the greedy rule, as equalshares.net's tool does by default ("add1u").
 */
import { type ApprovedIdea, type Approvals, type BudgetInput, collectApprovals } from '#lib/results/approvals';
import { fillGreedily, type Winners } from '#lib/results/greedy';
import {
  type Rational,
  ZERO,
  add,
  compare,
  divInt,
  format,
  mulInt,
  parse,
  rational,
  sub,
} from '#lib/results/rational';

export type Utility = 'approval' | 'cost';

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

export interface Purchase {
  ideaId: number;
  /** `ρ`, the most any supporter paid, as an exact fraction ("n/d"). */
  maxPayment: string;
}

export interface EqualSharesRun extends Winners {
  /** The ideas in the order bought, with their price. */
  purchases: Purchase[];
}

export interface EqualSharesResult extends Winners {
  /** The virtual budget per voter of the run that was kept ("n/d"); "0" without voters. */
  endowment: string;
  /** Purchases of the kept run (the greedy fill adds none). */
  purchases: Purchase[];
  /** How many runs the completion made. */
  runs: number;
  /** Ids the greedy fill added (empty unless `greedyFill`). */
  filled: number[];
}

interface Candidate {
  idea: ApprovedIdea;
  cost: bigint;
  /** The price at the last look; budgets only shrink, so the price never drops below it. */
  bound: Rational;
}

/** Compares `ρa / u(a)` with `ρb / u(b)`. */
function compareKey(rhoA: Rational, a: Candidate, rhoB: Rational, b: Candidate, utility: Utility): number {
  if (utility === 'approval') return compare(rhoA, rhoB);
  return compare(mulInt(rhoA, b.cost), mulInt(rhoB, a.cost));
}

/** The full order of step 3: key, then lower cost, more votes, lower id. */
function compareCandidates(rhoA: Rational, a: Candidate, rhoB: Rational, b: Candidate, utility: Utility): number {
  return (
    compareKey(rhoA, a, rhoB, b, utility) ||
    Number(a.cost - b.cost) ||
    b.idea.supporters.length - a.idea.supporters.length ||
    a.idea.id - b.idea.id
  );
}

/**
 * One run of MES. Voters with the same remaining budget share a budget class (`classOf`), so the
 * fraction arithmetic is per class, not per voter: a price is computed from the supporters' class counts.
 */
function runOnce(approvals: Approvals, endowment: Rational, utility: Utility): EqualSharesRun {
  const budgets: Rational[] = [endowment, ZERO];
  const EMPTY = 1;
  const classOf = new Int32Array(approvals.voters);
  const ideaIds: number[] = [];
  const purchases: Purchase[] = [];
  let spent = 0;

  const price = (candidate: Candidate): Rational | null => {
    const counts = new Map<number, number>();
    for (const voter of candidate.idea.supporters) {
      const cls = classOf[voter]!;
      counts.set(cls, (counts.get(cls) ?? 0) + 1);
    }
    const groups = [...counts].sort((x, y) => compare(budgets[x[0]]!, budgets[y[0]]!));
    let paid = ZERO;
    let payers = BigInt(candidate.idea.supporters.length);
    for (const [cls, count] of groups) {
      const rho = divInt(sub(rational(candidate.cost), paid), payers);
      if (compare(budgets[cls]!, rho) >= 0) return rho;
      paid = add(paid, mulInt(budgets[cls]!, BigInt(count)));
      payers -= BigInt(count);
    }
    return null;
  };

  const pay = (candidate: Candidate, rho: Rational): void => {
    const moved = new Map<number, number>();
    for (const voter of candidate.idea.supporters) {
      const cls = classOf[voter]!;
      let next = moved.get(cls);
      if (next === undefined) {
        const left = budgets[cls]!;
        next = compare(left, rho) > 0 ? budgets.push(sub(left, rho)) - 1 : EMPTY;
        moved.set(cls, next);
      }
      classOf[voter] = next;
    }
  };

  for (const idea of approvals.ideas) {
    if (idea.cost > 0) continue;
    ideaIds.push(idea.id);
    purchases.push({ ideaId: idea.id, maxPayment: '0' });
  }
  let live: Candidate[] = approvals.ideas
    .filter((idea) => idea.cost > 0)
    .map((idea) => ({ idea, cost: BigInt(idea.cost), bound: rational(BigInt(idea.cost), BigInt(idea.supporters.length)) }));

  while (live.length > 0) {
    live.sort((a, b) => compareCandidates(a.bound, a, b.bound, b, utility));
    let best: Candidate | null = null;
    let bestRho = ZERO;
    const gone = new Set<Candidate>();
    for (const candidate of live) {
      // Not looked at again: its price is at least its bound, so it can neither beat nor tie the best.
      if (best && compareKey(candidate.bound, candidate, bestRho, best, utility) > 0) break;
      const rho = price(candidate);
      if (!rho) {
        gone.add(candidate); // budgets only shrink: unaffordable for the rest of the run
        continue;
      }
      candidate.bound = rho;
      if (!best || compareCandidates(rho, candidate, bestRho, best, utility) < 0) {
        best = candidate;
        bestRho = rho;
      }
    }
    if (!best) break;
    pay(best, bestRho);
    ideaIds.push(best.idea.id);
    purchases.push({ ideaId: best.idea.id, maxPayment: format(bestRho) });
    spent += best.idea.cost;
    gone.add(best);
    live = live.filter((candidate) => !gone.has(candidate));
  }
  return { ideaIds, spent, purchases };
}

/** No unchosen idea with a vote fits in what is left. */
function isExhaustive(approvals: Approvals, run: Winners): boolean {
  const chosen = new Set(run.ideaIds);
  const left = approvals.budget - run.spent;
  return approvals.ideas.every((idea) => chosen.has(idea.id) || idea.cost > left);
}

function wholeOption(value: number | undefined, fallback: number, what: string): number {
  const result = value ?? fallback;
  if (!Number.isSafeInteger(result) || result < 1) throw new RangeError(`${what} must be a whole number >= 1`);
  return result;
}

/** One MES run with the given virtual budget per voter ("n/d"); for tests and worked examples. */
export function equalSharesRun(input: BudgetInput, endowment: string, utility: Utility = 'approval'): EqualSharesRun {
  return runOnce(collectApprovals(input), parse(endowment), utility);
}

export function equalShares(input: BudgetInput, options: EqualSharesOptions = {}): EqualSharesResult {
  const utility = options.utility ?? 'approval';
  const step = BigInt(wholeOption(options.stepPerVoter, 1, 'stepPerVoter'));
  const runsPerStep = wholeOption(options.runsPerStep, 1000, 'runsPerStep');
  const approvals = collectApprovals(input);
  if (approvals.voters === 0) return { ideaIds: [], spent: 0, endowment: '0', purchases: [], runs: 0, filled: [] };

  const base = rational(BigInt(approvals.budget), BigInt(approvals.voters));
  let endowment = base;
  let kept = runOnce(approvals, endowment, utility);
  let runs = 1;
  if (options.completion !== 'none' && !isExhaustive(approvals, kept)) {
    const total = approvals.ideas.reduce((sum, idea) => sum + idea.cost, 0);
    if (total <= approvals.budget) {
      // Every run is feasible, so the search would end at the first run that buys everything. A run
      // where every voter holds the total buys everything too (any supporter can pay any idea at any
      // time), in one step instead of thousands; only the purchase order may differ.
      endowment = rational(BigInt(total));
      kept = runOnce(approvals, endowment, utility);
      runs += 1;
    } else {
      // Ends: a run where every voter holds `total` buys every idea, which exceeds the budget.
      let increment = step;
      let next = add(base, rational(increment));
      for (;;) {
        const run = runOnce(approvals, next, utility);
        runs += 1;
        if (run.spent > approvals.budget) break;
        kept = run;
        endowment = next;
        if (isExhaustive(approvals, kept)) break;
        if ((runs - 1) % runsPerStep === 0) increment *= 2n;
        next = add(next, rational(increment));
      }
    }
  }
  const result = options.greedyFill ? fillGreedily(approvals.ideas, approvals.budget, kept.ideaIds, kept.spent) : kept;
  return {
    ideaIds: result.ideaIds,
    spent: result.spent,
    endowment: format(endowment),
    purchases: kept.purchases,
    runs,
    filled: result.ideaIds.slice(kept.ideaIds.length),
  };
}
