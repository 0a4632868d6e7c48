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
 * All amounts are exact (BigInt numerators over a common denominator, see `runOnce`), so a tie is a tie
 * and never a rounding accident.
 *
 * Add-one completion: one run with `e = budget / voters` usually leaves money unspent, so runs are
 * repeated with `e + step`, `e + 2·step`, ... (`step` = 1 currency unit per voter by default) and the
 * last run whose ideas still fit the real budget is kept; the search stops early at a run that is
 * exhaustive (no unchosen idea with a vote fits what is left). When all ideas with a vote fit the budget
 * together, the answer is all of them (where the search would end anyway), bought in one run with the
 * total cost per voter. The first run never exceeds the budget (its voters hold exactly the budget), so
 * there is always a run to keep. To bound the work on sites with few voters and a large budget, the step
 * doubles after every `runsPerStep` runs (default 1000); below that, the search is exactly the one of
 * the references. Optionally (`greedyFill`,
 * off by default, as the CONTRACT asks for add-one completion only) what is still left is then filled
 * by the greedy rule, as equalshares.net's tool does by default ("add1u").
 */
import { type ApprovedIdea, type Approvals, type BudgetInput, collectApprovals } from '#lib/results/approvals';
import { fillGreedily, type Winners } from '#lib/results/greedy';
import { type Rational, add, format, parse, rational } from '#lib/results/rational';

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

/**
 * An exact price within a run: `ρ = m / (payers · D)`, where `D` is the run's common denominator at the
 * time it was computed (see `runOnce`).
 */
interface Price {
  m: bigint;
  payers: bigint;
}

interface Candidate {
  idea: ApprovedIdea;
  cost: bigint;
  /** A lower bound of the key (floating point): prices never drop, as budgets only shrink. */
  bound: number;
  /** The key at this step's look (floating point), and the exact price when it was computed. */
  key: number;
  exact: Price | null;
}

/** Compares `ρa / u(a)` with `ρb / u(b)` exactly (both prices of the same step, so the same `D`). */
function compareKey(a: Price, ca: Candidate, b: Price, cb: Candidate, utility: Utility): number {
  let left = a.m * b.payers;
  let right = b.m * a.payers;
  if (utility === 'cost') {
    left *= cb.cost;
    right *= ca.cost;
  }
  return left < right ? -1 : left > right ? 1 : 0;
}

/** After an equal key: lower cost, more votes, lower id. */
const tieBreak = (a: Candidate, b: Candidate): number =>
  a.idea.cost - b.idea.cost || b.idea.supporters.length - a.idea.supporters.length || a.idea.id - b.idea.id;

/** The full order of step 3, exact. */
const compareCandidates = (a: Price, ca: Candidate, b: Price, cb: Candidate, utility: Utility): number =>
  compareKey(a, ca, b, cb, utility) || tieBreak(ca, cb);

/** A close floating-point value of `n / d`, also when they exceed the float range. */
export function toFloat(n: bigint, d: bigint): number {
  const top = Number(n);
  const bottom = Number(d);
  if (Number.isFinite(top) && Number.isFinite(bottom)) return top / bottom;
  const shift = BigInt(Math.max(n.toString(2).length, d.toString(2).length) - 900);
  return Number(n >> shift) / Number(d >> shift);
}

/**
 * One run of MES.
 *
 * Speed without giving up exactness:
 * - Voters with the same remaining budget share a budget class (`classOf`), so arithmetic is per class,
 *   not per voter.
 * - All budgets of a run share one denominator `D`, so they are BigInt numerators and no fraction is ever
 *   reduced (reducing, a gcd per operation, was most of the time). A purchase at price `m / (payers·D)`
 *   multiplies `D` by `payers`; a class's numerator is brought to the current `D` when it is next read
 *   (`scale[k]` is `D` at purchase k over the first `D`).
 * - Prices are first computed in floating point to find the few ideas that can be the cheapest: every
 *   idea whose float key is within a relative `slack` of the best float key is then priced exactly and
 *   the choice among them is made exactly (with the tie-breaking), so the outcome is the one exact
 *   arithmetic gives. `slack` is far above the float error of these sums (at most about
 *   voters² · 2^-52 relative, from adding at most `voters` terms and dividing what is left of a cost
 *   among at least 1/voters of its supporters), and so is the margin of the float affordability check.
 */
function runOnce(approvals: Approvals, endowment: Rational, utility: Utility): EqualSharesRun {
  const slack = Math.max(1e-9, 8 * (approvals.voters + 2) ** 2 * Number.EPSILON);
  let D = endowment.d;
  const scale: bigint[] = [1n];
  const numerator: bigint[] = [endowment.n, 0n];
  const epochOf: number[] = [0, 0];
  const approx: number[] = [toFloat(endowment.n, D), 0];
  const EMPTY = 1;
  /** The class's budget as a numerator over the current `D`. */
  const budgetOf = (cls: number): bigint => {
    const epoch = epochOf[cls]!;
    const now = scale.length - 1;
    if (epoch !== now) {
      numerator[cls] = numerator[cls]! * (scale[now]! / scale[epoch]!);
      epochOf[cls] = now;
    }
    return numerator[cls]!;
  };
  const classOf = new Int32Array(approvals.voters);
  let counts = new Int32Array(64);
  const touched: number[] = [];

  /** Fills `touched` with the supporters' classes and `counts` with how many are in each. */
  const gather = (candidate: Candidate): void => {
    if (counts.length < numerator.length) {
      const grown = new Int32Array(numerator.length * 2);
      grown.set(counts);
      counts = grown;
    }
    touched.length = 0;
    for (const voter of candidate.idea.supporters) {
      const cls = classOf[voter]!;
      if (counts[cls] === 0) touched.push(cls);
      counts[cls]! += 1;
    }
  };
  const release = (): void => {
    for (const cls of touched) counts[cls] = 0;
  };

  /**
   * The exact price: the poorest classes pay all they have while the rest would pay more. The float
   * order says which classes are poor; the price that gives is then checked exactly against every class
   * (poor ones below it, the others at or above it), which makes it the price. Only if that check fails
   * (the float order was wrong at the edge) are the classes put in exact order.
   */
  const priceExact = (candidate: Candidate): Price | null => {
    gather(candidate);
    const groups = touched.map((cls) => [cls, counts[cls]!] as const).sort((x, y) => approx[x[0]]! - approx[y[0]]!);
    release();
    const costD = candidate.cost * D;
    const cost = candidate.idea.cost;
    let paidF = 0;
    let payers = candidate.idea.supporters.length;
    let split = groups.length;
    for (let i = 0; i < groups.length; i += 1) {
      const [cls, count] = groups[i]!;
      if (approx[cls]! >= (cost - paidF) / payers) {
        split = i;
        break;
      }
      paidF += count * approx[cls]!;
      payers -= count;
    }
    if (split < groups.length) {
      let paid = 0n;
      for (let i = 0; i < split; i += 1) paid += budgetOf(groups[i]![0]) * BigInt(groups[i]![1]);
      const price = { m: costD - paid, payers: BigInt(payers) };
      if (groups.every(([cls], i) => budgetOf(cls) * price.payers < price.m === i < split)) return price;
    }
    const ordered = [...groups].sort((x, y) => {
      const a = budgetOf(x[0]);
      const b = budgetOf(y[0]);
      return a < b ? -1 : a > b ? 1 : 0;
    });
    let paid = 0n;
    let left = BigInt(candidate.idea.supporters.length);
    for (const [cls, count] of ordered) {
      const m = costD - paid;
      if (budgetOf(cls) * left >= m) return { m, payers: left };
      paid += budgetOf(cls) * BigInt(count);
      left -= BigInt(count);
    }
    return null;
  };

  /** The float price, -1 when surely unaffordable; near the affordability edge, the exact one. */
  const priceFloat = (candidate: Candidate): number => {
    candidate.exact = null;
    gather(candidate);
    let money = 0;
    for (const cls of touched) money += counts[cls]! * approx[cls]!;
    const cost = candidate.idea.cost;
    if (money < cost * (1 + slack)) {
      release();
      if (money < cost * (1 - slack)) return -1;
      candidate.exact = priceExact(candidate);
      return candidate.exact ? toFloat(candidate.exact.m, candidate.exact.payers * D) : -1;
    }
    const groups = [...touched].sort((x, y) => approx[x]! - approx[y]!);
    let paid = 0;
    let payers = candidate.idea.supporters.length;
    let rho = cost / payers;
    for (const cls of groups) {
      rho = (cost - paid) / payers;
      if (approx[cls]! >= rho) break;
      paid += counts[cls]! * approx[cls]!;
      payers -= counts[cls]!;
    }
    release();
    return rho;
  };

  /** Charges the supporters `m / (payers·D)` each (or all they have); `D` becomes `payers·D`. */
  const pay = (candidate: Candidate, price: Price): string => {
    scale.push(scale[scale.length - 1]! * price.payers);
    D *= price.payers;
    const moved = new Map<number, number>();
    const byValue = new Map<bigint, number>();
    for (const voter of candidate.idea.supporters) {
      const cls = classOf[voter]!;
      let next = moved.get(cls);
      if (next === undefined) {
        const left = budgetOf(cls) - price.m;
        next = left > 0n ? byValue.get(left) : EMPTY;
        if (next === undefined) {
          next = numerator.push(left) - 1;
          epochOf.push(scale.length - 1);
          approx.push(toFloat(left, D));
          byValue.set(left, next);
        }
        moved.set(cls, next);
      }
      classOf[voter] = next;
    }
    return format(rational(price.m, D));
  };

  const ideaIds: number[] = [];
  const purchases: Purchase[] = [];
  let spent = 0;
  for (const idea of approvals.ideas) {
    if (idea.cost > 0) continue;
    ideaIds.push(idea.id);
    purchases.push({ ideaId: idea.id, maxPayment: '0' });
  }
  const keyOf = (candidate: Candidate, rho: number): number => (utility === 'approval' ? rho : rho / candidate.idea.cost);
  let live: Candidate[] = approvals.ideas
    .filter((idea) => idea.cost > 0)
    .map((idea) => ({ idea, cost: BigInt(idea.cost), bound: 0, key: 0, exact: null }));
  for (const candidate of live) candidate.bound = keyOf(candidate, candidate.idea.cost / candidate.idea.supporters.length) * (1 - slack);

  while (live.length > 0) {
    live.sort((a, b) => a.bound - b.bound || tieBreak(a, b));
    let bestKey = Infinity;
    const looked: Candidate[] = [];
    const gone = new Set<Candidate>();
    for (const candidate of live) {
      // Not looked at: its key is at least its bound, so it can neither beat nor tie the best.
      if (candidate.bound > bestKey * (1 + slack)) break;
      const rho = priceFloat(candidate);
      if (rho < 0) {
        gone.add(candidate); // budgets only shrink: unaffordable for the rest of the run
        continue;
      }
      candidate.key = keyOf(candidate, rho);
      candidate.bound = candidate.key * (1 - slack);
      looked.push(candidate);
      bestKey = Math.min(bestKey, candidate.key);
    }
    let best: Candidate | null = null;
    let bestPrice: Price = { m: 0n, payers: 1n };
    for (const candidate of looked) {
      if (candidate.key > bestKey * (1 + slack)) continue;
      const price = candidate.exact ?? priceExact(candidate);
      if (!price) {
        gone.add(candidate);
        continue;
      }
      if (!best || compareCandidates(price, candidate, bestPrice, best, utility) < 0) {
        best = candidate;
        bestPrice = price;
      }
    }
    if (best) {
      purchases.push({ ideaId: best.idea.id, maxPayment: pay(best, bestPrice) });
      ideaIds.push(best.idea.id);
      spent += best.idea.cost;
      gone.add(best);
    } else if (gone.size === 0) {
      break;
    }
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
