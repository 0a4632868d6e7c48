/**
 * One run of the Method of Equal Shares for a virtual budget `e` per voter (the rule: docs/results.md
 * and lib/results/equal-shares.ts), computed so that a city's vote (500 ideas, 100,000 ballots) takes
 * milliseconds per run and the outcome is still the exact one.
 *
 * Data layout (all per run, over lib/results/profile.ts's groups of identical ballots):
 * - **Budget classes.** Voters whose remaining budgets are equal share a class; a class is immutable (its
 *   budget is fixed when it is made), and a purchase moves each paying group to a child class
 *   (`parent`, minus the purchase's price) or out of the run (it paid all it had). A run makes one class
 *   per (class, purchase) pair that occurs, usually a few per purchase.
 * - **Per-idea histograms**: for every idea still open, its supporters' weight per class. Pricing an
 *   idea walks its histogram (a few to a few hundred classes), not its supporters (tens of thousands).
 *   A purchase updates the histograms of the ideas its payers also chose, marks them dirty, and leaves
 *   every other idea's price as it was.
 * - **Lazy re-pricing** (prices only rise within a run, as budgets only shrink): each step visits the
 *   open ideas by a certified lower bound of their key and stops as soon as no later one can beat (or
 *   tie) the best; an idea whose histogram did not change keeps its price without any work.
 *
 * Exact where it matters, floats elsewhere. Every class carries a float budget with a rigorous bound on
 * its error (running error analysis: each sum, product and quotient adds at most 2 units in the last
 * place of its magnitude, and the bounds of its inputs carry through). A decision is taken in floats only
 * when the bounds certify it: an idea is affordable (or not), a supporter pays all they have (or not),
 * one key is below another. When the bounds overlap (a real tie, such as two ideas of the same cost and
 * support, or a supporter whose budget equals the price), that one decision is made with exact
 * fractions: exact class budgets are computed on demand from the chain of purchases that made them
 * (memoised), which never happens on most steps of a large vote and always gives the answer exact
 * arithmetic gives (tests compare it with a brute-force exact reference).
 *
 * Cost per run (n voters, m ideas, A approvals, P purchases, h the classes in a histogram): building the
 * histograms O(m); each purchase O(Σ over its paying groups of their ballot lengths) to move them; each
 * pricing O(h log h). With the lazy bound a step prices a few ideas, so a run is about
 * O(A·s + P·k·h log h), s the average number of funded ideas a voter chose (1-3), k the ideas priced per
 * step (a handful): linear in the ballots, independent of the voters' number beyond that.
 */
import type { Profile } from '#lib/results/profile';
import { type Rational, ZERO, add, compare, floatOf, format, over, rational, sub, times, TO_FLOAT_ERROR } from '#lib/results/rational';

export type Utility = 'approval' | 'cost';

export interface Purchase {
  ideaId: number;
  /** `ρ`, the most any supporter paid, as an exact fraction ("n/d"). */
  maxPayment: string;
}

export interface RunOutcome {
  /** The ideas in the order bought. */
  ideaIds: number[];
  spent: number;
  /** Only when asked for (`withPrices`): computing every price exactly costs extra. */
  purchases?: Purchase[];
}

/** Unit round-off of a double. */
const U = 2 ** -53;
/** Error of one rounded operation on a value of magnitude x, with a margin of 2. */
const ulpErr = (x: number): number => 2 * U * Math.abs(x);

/** Passes of the float pricing before it leaves an idea to the exact one (see `priceFloat`). */
const MAX_PASSES = 12;

/** A class id for voters who paid everything they had (they are in no histogram). */
const SPENT = -1;

/** What pricing an idea in floats found out. */
const enum Priced {
  /** Certainly not affordable any more in this run (budgets only shrink). */
  Gone,
  /** The key and its error bound are valid. */
  Ok,
  /** The bounds overlap at a decision: price it exactly. */
  Uncertain,
}

class Run {
  // Classes (immutable once made), in growable typed arrays: a large run makes tens of thousands.
  private classes = 0;
  private budget = new Float64Array(1024);
  private budgetErr = new Float64Array(1024);
  private parent = new Int32Array(1024);
  private madeBy = new Int32Array(1024);
  /** Exact budgets computed so far (on demand). */
  private readonly exactBudget = new Map<number, Rational>();
  // Purchases, in order.
  private readonly boughtIdea: number[] = [];
  private readonly payers: number[] = [];
  private readonly poorClasses: number[][] = [];
  private readonly poorWeights: number[][] = [];
  private readonly exactPrice: (Rational | undefined)[] = [];
  // Ideas.
  private readonly dirty: Uint8Array;
  private readonly closed: Uint8Array;
  private readonly key: Float64Array;
  private readonly keyErr: Float64Array;
  private readonly price: Float64Array;
  private readonly priceErr: Float64Array;
  private readonly bound: Float64Array;
  /** The exact price found at the idea's last pricing, when it was priced exactly. */
  private readonly exactAt: (Rational | undefined)[];
  // Groups.
  private readonly groupClass: Int32Array;
  // Scratch for gathering an idea's supporters by class (`gather`).
  private weightOf = new Float64Array(1024);
  private nextOf = new Int32Array(1024);
  private readonly scratchClass: Int32Array;
  private readonly scratchWeight: Float64Array;
  private readonly scratchBudget: Float64Array;

  constructor(
    private readonly profile: Profile,
    private readonly endowment: Rational,
    private readonly utility: Utility,
  ) {
    const m = profile.ideas.length;
    const e = floatOf(endowment);
    this.newClass(e, TO_FLOAT_ERROR * e, -1, -1);
    this.exactBudget.set(0, endowment);
    let widest = 1;
    for (let j = 0; j < m; j += 1) widest = Math.max(widest, profile.ideaGroupStart[j + 1]! - profile.ideaGroupStart[j]!);
    this.scratchClass = new Int32Array(widest);
    this.scratchWeight = new Float64Array(widest);
    this.scratchBudget = new Float64Array(widest);
    this.dirty = new Uint8Array(m).fill(1);
    this.closed = new Uint8Array(m);
    this.key = new Float64Array(m);
    this.keyErr = new Float64Array(m);
    this.price = new Float64Array(m);
    this.priceErr = new Float64Array(m);
    this.bound = new Float64Array(m);
    this.exactAt = new Array<Rational | undefined>(m);
    this.groupClass = new Int32Array(profile.groupWeight.length);
  }

  private newClass(budget: number, err: number, parent: number, madeBy: number): number {
    const c = this.classes;
    if (c === this.budget.length) {
      const grow = <T extends Float64Array | Int32Array>(from: T, to: T): T => {
        to.set(from);
        return to;
      };
      this.budget = grow(this.budget, new Float64Array(c * 2));
      this.budgetErr = grow(this.budgetErr, new Float64Array(c * 2));
      this.parent = grow(this.parent, new Int32Array(c * 2));
      this.madeBy = grow(this.madeBy, new Int32Array(c * 2));
    }
    this.budget[c] = budget;
    this.budgetErr[c] = err;
    this.parent[c] = parent;
    this.madeBy[c] = madeBy;
    this.classes = c + 1;
    return c;
  }

  // ---- exact values, on demand ----

  private classExact(cls: number): Rational {
    let exact = this.exactBudget.get(cls);
    if (exact === undefined) {
      exact = sub(this.classExact(this.parent[cls]!), this.purchaseExact(this.madeBy[cls]!));
      this.exactBudget.set(cls, exact);
    }
    return exact;
  }

  /** `ρ` of purchase k: (cost − what the poor paid) / the weight of those who paid `ρ`. */
  private purchaseExact(k: number): Rational {
    let exact = this.exactPrice[k];
    if (exact === undefined) {
      let paid = ZERO;
      const classes = this.poorClasses[k]!;
      const weights = this.poorWeights[k]!;
      for (let i = 0; i < classes.length; i += 1) paid = add(paid, times(this.classExact(classes[i]!), BigInt(weights[i]!)));
      exact = over(sub(rational(BigInt(this.profile.ideas[this.boughtIdea[k]!]!.cost)), paid), BigInt(this.payers[k]!));
      this.exactPrice[k] = exact;
    }
    return exact;
  }

  /** The exact price of idea j now, or null when its supporters hold less than its cost. */
  private priceExactly(j: number): Rational | null {
    const n = this.gather(j);
    const entries = Array.from({ length: n }, (_, i) => ({ weight: BigInt(this.scratchWeight[i]!), budget: this.classExact(this.scratchClass[i]!) }));
    entries.sort((a, b) => compare(a.budget, b.budget));
    const cost = rational(BigInt(this.profile.ideas[j]!.cost));
    let total = ZERO;
    for (const entry of entries) total = add(total, times(entry.budget, entry.weight));
    if (compare(total, cost) < 0) return null;
    let paid = ZERO;
    let left = entries.reduce((sum, entry) => sum + entry.weight, 0n);
    for (const entry of entries) {
      const missing = sub(cost, paid);
      if (compare(times(entry.budget, left), missing) >= 0) return over(missing, left);
      paid = add(paid, times(entry.budget, entry.weight));
      left -= entry.weight;
    }
    return null; // unreachable: the total covers the cost
  }

  // ---- pricing in floats ----

  /**
   * Idea j's supporters who still hold money, by class: fills the scratch arrays (class, weight, float
   * budget) and returns how many classes there are. One pass over the idea's groups.
   */
  private gather(j: number): number {
    const classes = this.classes;
    if (this.weightOf.length < classes) {
      this.weightOf = new Float64Array(classes * 2);
      this.nextOf = new Int32Array(classes * 2);
    }
    const { groupWeight, ideaGroupStart, ideaGroupList } = this.profile;
    const weightOf = this.weightOf;
    const groupClass = this.groupClass;
    const cls = this.scratchClass;
    let n = 0;
    for (let p = ideaGroupStart[j]!; p < ideaGroupStart[j + 1]!; p += 1) {
      const g = ideaGroupList[p]!;
      const c = groupClass[g]!;
      if (c === SPENT) continue;
      if (weightOf[c] === 0) cls[n++] = c;
      weightOf[c] = weightOf[c]! + groupWeight[g]!;
    }
    for (let i = 0; i < n; i += 1) {
      const c = cls[i]!;
      this.scratchWeight[i] = weightOf[c]!;
      this.scratchBudget[i] = this.budget[c]!;
      weightOf[c] = 0;
    }
    return n;
  }

  /** Prices idea j in floats; on Ok, `price`, `priceErr`, `key`, `keyErr` hold the result. */
  private priceFloat(j: number): Priced {
    const n = this.gather(j);
    const cls = this.scratchClass;
    const weight = this.scratchWeight;
    const budget = this.scratchBudget;
    const errs = this.budgetErr;
    const cost = this.profile.ideas[j]!.cost;
    let money = 0;
    let moneyErr = 0;
    let payers = 0;
    for (let i = 0; i < n; i += 1) {
      money += weight[i]! * budget[i]!;
      moneyErr += weight[i]! * errs[cls[i]!]!;
      payers += weight[i]!;
    }
    moneyErr += 2 * (n + 2) * U * money;
    if (money + moneyErr < cost) return Priced.Gone;
    if (money - moneyErr < cost) return Priced.Uncertain;

    // The poor (who pay all they have) are those below ρ, and ρ depends on who is poor: iterate from
    // ρ = cost / payers. The poor set only grows, so it settles in a few passes (no sort); a set that
    // has not settled after MAX_PASSES is left to the exact pricing.
    const total = payers;
    let rho = cost / total;
    let poorCount = -1;
    let paid = 0;
    let paidErr = 0;
    let poorTerms = 0;
    for (let pass = 0; ; pass += 1) {
      if (pass === MAX_PASSES) return Priced.Uncertain;
      let sum = 0;
      let sumErr = 0;
      let count = 0;
      let left = total;
      for (let i = 0; i < n; i += 1) {
        if (budget[i]! < rho) {
          sum += weight[i]! * budget[i]!;
          sumErr += weight[i]! * errs[cls[i]!]!;
          left -= weight[i]!;
          count += 1;
        }
      }
      if (count === poorCount) break;
      if (left <= 0) return Priced.Uncertain;
      poorCount = count;
      paid = sum;
      paidErr = sumErr;
      poorTerms = count;
      payers = left;
      rho = (cost - paid) / payers;
    }
    const numerator = cost - paid;
    const numeratorErr = paidErr + 2 * (poorTerms + 2) * U * paid + ulpErr(numerator);
    const rhoErr = numeratorErr / payers + ulpErr(rho);
    // Certify who pays all they have: every budget must be clearly below (poor) or above (payer) ρ.
    for (let i = 0; i < n; i += 1) {
      const gap = Math.abs(budget[i]! - rho);
      if (gap <= errs[cls[i]!]! + rhoErr) return Priced.Uncertain;
    }
    this.price[j] = rho;
    this.priceErr[j] = rhoErr;
    if (this.utility === 'approval') {
      this.key[j] = rho;
      this.keyErr[j] = rhoErr;
    } else {
      this.key[j] = rho / cost;
      this.keyErr[j] = rhoErr / cost + ulpErr(rho / cost);
    }
    return Priced.Ok;
  }

  /** Prices idea j (floats, exactly when they cannot decide). False when it can no longer be bought. */
  private reprice(j: number): boolean {
    this.dirty[j] = 0;
    this.exactAt[j] = undefined;
    const status = this.priceFloat(j);
    if (status === Priced.Gone) return false;
    if (status === Priced.Uncertain) {
      const exact = this.priceExactly(j);
      if (!exact) return false;
      this.setExact(j, exact);
    }
    return true;
  }

  private setExact(j: number, exact: Rational): void {
    const cost = this.profile.ideas[j]!.cost;
    const rho = floatOf(exact);
    this.exactAt[j] = exact;
    this.price[j] = rho;
    this.priceErr[j] = TO_FLOAT_ERROR * rho;
    this.key[j] = this.utility === 'approval' ? rho : rho / cost;
    this.keyErr[j] = this.utility === 'approval' ? this.priceErr[j]! : this.priceErr[j]! / cost + ulpErr(rho / cost);
  }

  // ---- choosing ----

  /** Exact order of step 3 between two ideas priced exactly now: key, then lower cost, more votes, lower id. */
  private compareExactly(a: number, pa: Rational, b: number, pb: Rational): number {
    const ia = this.profile.ideas[a]!;
    const ib = this.profile.ideas[b]!;
    const byKey = this.utility === 'approval' ? compare(pa, pb) : compare(times(pa, BigInt(ib.cost)), times(pb, BigInt(ia.cost)));
    return byKey || ia.cost - ib.cost || ib.supporters - ia.supporters || ia.id - ib.id;
  }

  /** Charges idea j's supporters (the price it was last given) and moves them to their new classes. */
  private pay(j: number): void {
    const k = this.boughtIdea.length;
    const exact = this.exactAt[j];
    const rho = this.price[j]!;
    const rhoErr = this.priceErr[j]!;
    const n = this.gather(j);
    const nextOf = this.nextOf;
    const poor: number[] = [];
    const poorWeight: number[] = [];
    let payers = 0;
    for (let i = 0; i < n; i += 1) {
      const cls = this.scratchClass[i]!;
      const weight = this.scratchWeight[i]!;
      // Exactly priced: decide exactly (a budget equal to the price is spent whole). Else the float
      // pricing certified every budget as clearly below or above the price.
      const isPoor = exact ? compare(this.classExact(cls), exact) <= 0 : this.budget[cls]! < rho;
      if (isPoor) {
        poor.push(cls);
        poorWeight.push(weight);
        nextOf[cls] = SPENT;
      } else {
        payers += weight;
        const left = Math.max(0, this.budget[cls]! - rho);
        nextOf[cls] = this.newClass(left, this.budgetErr[cls]! + rhoErr + ulpErr(left), cls, k);
      }
    }
    this.boughtIdea.push(j);
    this.payers.push(payers);
    this.poorClasses.push(poor);
    this.poorWeights.push(poorWeight);
    this.exactPrice.push(exact);
    this.closed[j] = 1;

    const { ideaGroupStart, ideaGroupList, neighbourStart, neighbourList } = this.profile;
    const groupClass = this.groupClass;
    for (let p = ideaGroupStart[j]!; p < ideaGroupStart[j + 1]!; p += 1) {
      const g = ideaGroupList[p]!;
      const from = groupClass[g]!;
      if (from !== SPENT) groupClass[g] = nextOf[from]!;
    }
    // Only the ideas sharing a voter with j can have a new price.
    for (let p = neighbourStart[j]!; p < neighbourStart[j + 1]!; p += 1) this.dirty[neighbourList[p]!] = 1;
  }

  run(withPrices: boolean): RunOutcome {
    const ideas = this.profile.ideas;
    const ideaIds: number[] = [];
    const prices: string[] = [];
    let spent = 0;
    const live: number[] = [];
    ideas.forEach((idea, j) => {
      if (idea.cost > 0) {
        live.push(j);
        return;
      }
      ideaIds.push(idea.id);
      prices.push('0');
      this.closed[j] = 1;
    });
    const boughtFree = ideaIds.length;

    let open = live;
    while (open.length > 0) {
      open.sort((a, b) => this.bound[a]! - this.bound[b]!);
      let bestUpper = Infinity;
      const looked: number[] = [];
      for (const j of open) {
        // Its key is at least its bound: it cannot beat or tie the best, nor can any idea after it.
        if (this.bound[j]! > bestUpper) break;
        if (this.dirty[j] && !this.reprice(j)) {
          this.closed[j] = 1;
          continue;
        }
        this.bound[j] = this.key[j]! - this.keyErr[j]!;
        looked.push(j);
        bestUpper = Math.min(bestUpper, this.key[j]! + this.keyErr[j]!);
      }
      const contenders = looked.filter((j) => this.bound[j]! <= bestUpper);
      if (contenders.length === 0) break;
      let best = contenders[0]!;
      if (contenders.length > 1) {
        let bestPrice: Rational | null = null;
        for (const j of contenders) {
          const exact = this.exactAt[j] ?? this.priceExactly(j);
          if (!exact) {
            this.closed[j] = 1;
            continue;
          }
          if (!this.exactAt[j]) this.setExact(j, exact);
          if (!bestPrice || this.compareExactly(j, exact, best, bestPrice) < 0) {
            best = j;
            bestPrice = exact;
          }
        }
        if (!bestPrice) {
          open = open.filter((j) => !this.closed[j]);
          continue;
        }
      }
      this.pay(best);
      ideaIds.push(ideas[best]!.id);
      spent += ideas[best]!.cost;
      open = open.filter((j) => !this.closed[j]);
    }

    const outcome: RunOutcome = { ideaIds, spent };
    if (withPrices) {
      outcome.purchases = ideaIds.map((ideaId, index) => ({
        ideaId,
        maxPayment: index < boughtFree ? prices[index]! : format(this.purchaseExact(index - boughtFree)),
      }));
    }
    return outcome;
  }
}

/** One run of Equal Shares with `endowment` per voter. */
export function runEqualShares(profile: Profile, endowment: Rational, utility: Utility, withPrices = false): RunOutcome {
  return new Run(profile, endowment, utility).run(withPrices);
}
