/**
 * A brute-force reference for the Method of Equal Shares, for tests on small instances only: one
 * budget per voter (no budget classes), every idea priced at every step (no bounds), prices found by
 * trying every candidate value and keeping the smallest that the definition accepts, the completion
 * searched one step at a time without shortcuts, and its own fraction type, so that a bug in
 * lib/results cannot be copied here.
 */

class Frac {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint, d: bigint = 1n) {
    let a = n < 0n ? -n : n;
    let b = d;
    while (b !== 0n) [a, b] = [b, a % b];
    const g = a === 0n ? 1n : a;
    this.n = n / g;
    this.d = d / g;
  }
  plus(o: Frac): Frac { return new Frac(this.n * o.d + o.n * this.d, this.d * o.d); }
  minus(o: Frac): Frac { return new Frac(this.n * o.d - o.n * this.d, this.d * o.d); }
  times(k: bigint): Frac { return new Frac(this.n * k, this.d); }
  over(k: bigint): Frac { return new Frac(this.n, this.d * k); }
  cmp(o: Frac): number { const l = this.n * o.d; const r = o.n * this.d; return l < r ? -1 : l > r ? 1 : 0; }
  min(o: Frac): Frac { return this.cmp(o) <= 0 ? this : o; }
  toString(): string { return this.d === 1n ? `${this.n}` : `${this.n}/${this.d}`; }
}

interface RefInstance {
  ideas: { id: number; cost: number }[];
  ballots: number[][];
  budget: number;
}

export type RefUtility = 'approval' | 'cost';

interface RefRun {
  ideaIds: number[];
  spent: number;
  prices: string[];
  /** Each voter's payment per bought idea (idea id -> payment), for the payment checks. */
  payments: Map<number, Frac>[];
}

const supportersOf = (inst: RefInstance, id: number): number[] =>
  inst.ballots.flatMap((ballot, voter) => (ballot.includes(id) ? [voter] : []));

/** Smallest `ρ` with `Σ min(b_i, ρ) = cost`, or null when the supporters hold less than the cost. */
function priceOf(cost: bigint, budgets: Frac[]): Frac | null {
  const total = budgets.reduce((sum, b) => sum.plus(b), new Frac(0n));
  if (total.cmp(new Frac(cost)) < 0) return null;
  const sorted = [...budgets].sort((a, b) => a.cmp(b));
  let best: Frac | null = null;
  // Every candidate: the k poorest pay all they have, the others split the rest equally.
  for (let k = 0; k < sorted.length; k += 1) {
    const poor = sorted.slice(0, k).reduce((sum, b) => sum.plus(b), new Frac(0n));
    const x = new Frac(cost).minus(poor).over(BigInt(sorted.length - k));
    const covered = budgets.reduce((sum, b) => sum.plus(b.min(x)), new Frac(0n));
    if (x.cmp(new Frac(0n)) > 0 && covered.cmp(new Frac(cost)) === 0 && (!best || x.cmp(best) < 0)) best = x;
  }
  return best;
}

export function referenceRun(inst: RefInstance, endowment: Frac, utility: RefUtility): RefRun {
  const budgets = inst.ballots.map(() => endowment);
  const payments = inst.ballots.map(() => new Map<number, Frac>());
  const supported = inst.ideas.filter((idea) => supportersOf(inst, idea.id).length > 0);
  const ideaIds: number[] = [];
  const prices: string[] = [];
  let spent = 0;
  for (const idea of [...supported].sort((a, b) => a.id - b.id)) {
    if (idea.cost === 0) { ideaIds.push(idea.id); prices.push('0'); }
  }
  let open = supported.filter((idea) => idea.cost > 0);
  for (;;) {
    const priced = open.flatMap((idea) => {
      const supporters = supportersOf(inst, idea.id);
      const rho = priceOf(BigInt(idea.cost), supporters.map((v) => budgets[v]!));
      if (!rho) return [];
      const key = utility === 'approval' ? rho : rho.over(BigInt(idea.cost));
      return [{ idea, rho, key, votes: supporters.length, supporters }];
    });
    if (priced.length === 0) break;
    priced.sort((a, b) => a.key.cmp(b.key) || a.idea.cost - b.idea.cost || b.votes - a.votes || a.idea.id - b.idea.id);
    const pick = priced[0]!;
    for (const v of pick.supporters) {
      const pay = budgets[v]!.min(pick.rho);
      budgets[v] = budgets[v]!.minus(pay);
      payments[v]!.set(pick.idea.id, pay);
    }
    ideaIds.push(pick.idea.id);
    prices.push(pick.rho.toString());
    spent += pick.idea.cost;
    open = open.filter((idea) => idea.id !== pick.idea.id);
  }
  return { ideaIds, spent, prices, payments };
}

function exhaustive(inst: RefInstance, run: RefRun): boolean {
  return inst.ideas.every(
    (idea) => run.ideaIds.includes(idea.id) || supportersOf(inst, idea.id).length === 0 || run.spent + idea.cost > inst.budget,
  );
}

/** MES with add-one completion: `budget / voters`, then +`step` per voter while the outcome fits. */
export function referenceEqualShares(
  inst: RefInstance,
  utility: RefUtility,
  completion: 'add-one' | 'none',
  step = 1,
): RefRun & { endowment: string } {
  if (inst.ballots.length === 0) return { ideaIds: [], spent: 0, prices: [], payments: [], endowment: '0' };
  let endowment = new Frac(BigInt(inst.budget), BigInt(inst.ballots.length));
  let kept = referenceRun(inst, endowment, utility);
  if (completion === 'add-one') {
    for (let e = endowment.plus(new Frac(BigInt(step))); !exhaustive(inst, kept); e = e.plus(new Frac(BigInt(step)))) {
      const run = referenceRun(inst, e, utility);
      if (run.spent > inst.budget) break;
      kept = run;
      endowment = e;
    }
  }
  return { ...kept, endowment: endowment.toString() };
}

export { Frac };
