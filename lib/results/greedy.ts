/**
 * The greedy budgeting rule most cities use: go through the ideas by number of votes, most first (ties:
 * lower id first), and fund each one that still fits under the budget; one that no longer fits is
 * skipped and the next, cheaper one may still fit. Ideas without a vote are never funded.
 */
import { type BudgetInput, collectApprovals } from '#lib/results/approvals';

export interface Winners {
  /** In the order the rule picked them. */
  ideaIds: number[];
  spent: number;
}

/** An idea as the greedy rule sees it: its cost and how many voters chose it. */
interface GreedyIdea {
  id: number;
  cost: number;
  supporters: number;
}

const byVotesThenId = (a: GreedyIdea, b: GreedyIdea): number => b.supporters - a.supporters || a.id - b.id;

/**
 * Adds to `chosen` (already spending `spent`) every idea of `ideas` that is not chosen yet and still
 * fits, in greedy order. Also the fill step after Equal Shares when that is asked for.
 */
export function fillGreedily(ideas: readonly GreedyIdea[], budget: number, chosen: readonly number[], spent: number): Winners {
  const taken = new Set(chosen);
  const ideaIds = [...chosen];
  let total = spent;
  for (const idea of [...ideas].sort(byVotesThenId)) {
    if (taken.has(idea.id) || total + idea.cost > budget) continue;
    ideaIds.push(idea.id);
    total += idea.cost;
  }
  return { ideaIds, spent: total };
}

export function greedyWinners(input: BudgetInput): Winners {
  const { ideas, budget } = collectApprovals(input);
  return fillGreedily(ideas.map((idea) => ({ id: idea.id, cost: idea.cost, supporters: idea.supporters.length })), budget, [], 0);
}
