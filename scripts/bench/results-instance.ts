/**
 * A city's budgeting vote, made up deterministically (a seeded generator), for the results bench and
 * for tests that need a large one: `ideas` ideas costing 5,000 to 150,000 each; `ballots` ballots of one
 * to six ideas chosen by popularity (the idea of rank r is chosen with weight 1 / r^0.8, so a few ideas
 * draw most votes, as in Pabulib's city data); the budget a share of all ideas' cost (15% by default:
 * about one idea in six can be funded).
 */
import type { BudgetInput } from '#lib/results/approvals';

/** mulberry32: small, fast, good enough to make test data (not for anything secret). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface CityVote extends BudgetInput {
  ideas: { id: number; cost: number }[];
  ballots: number[][];
}

export function cityVote(ideas: number, ballots: number, { seed = 1, budgetShare = 0.15 } = {}): CityVote {
  const random = seededRandom(seed);
  const list = Array.from({ length: ideas }, (_, i) => ({ id: i + 1, cost: 5000 + Math.floor(random() * 145_000) }));
  const weights = list.map((_, i) => 1 / (i + 1) ** 0.8);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w / total));
  const pick = () => {
    const x = random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  const votes = Array.from({ length: ballots }, () => {
    const size = 1 + Math.floor(random() * 6);
    const chosen = new Set<number>();
    while (chosen.size < size) chosen.add(pick());
    return [...chosen];
  });
  const budget = Math.round(list.reduce((a, b) => a + b.cost, 0) * budgetShare);
  return { ideas: list, ballots: votes, budget };
}
