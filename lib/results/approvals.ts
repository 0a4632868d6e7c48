/**
 * The input both budgeting rules share: ideas with an integer cost, the ballots as the sets of ideas
 * each voter approved, and the budget. Storage-independent on purpose: whoever reads the ballots turns
 * them into this shape (an idea without a budget is left out by the caller; it cannot be funded).
 */

export interface BudgetIdea {
  id: number;
  /** Whole currency units, >= 0. */
  cost: number;
}

export interface BudgetInput {
  ideas: readonly BudgetIdea[];
  /** One entry per ballot counted: the ids of the ideas that voter approved. */
  ballots: readonly (readonly number[])[];
  /** `votes.maxBudget` (or the theme's), whole currency units, >= 0. */
  budget: number;
}

interface ApprovedIdea {
  id: number;
  cost: number;
  /** Indexes into the ballots, ascending; a voter who named an idea twice counts once. */
  supporters: Int32Array;
}

interface Approvals {
  /** Every ballot counts as a voter, also one that approves nothing that can be funded. */
  voters: number;
  /** The ideas with at least one approval, by id ascending. Unapproved ideas never win. */
  ideas: ApprovedIdea[];
  budget: number;
}

function assertWholeAmount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number >= 0, got ${value}`);
}

/**
 * Checks the input and groups the approvals per idea. Votes for ideas that are not in `ideas` (deleted,
 * or without a budget) are ignored. Bad numbers are a programming error of the caller, not user input,
 * so they throw a RangeError.
 */
export function collectApprovals(input: BudgetInput): Approvals {
  assertWholeAmount(input.budget, 'budget');
  const supporters = new Map<number, number[]>();
  const costs = new Map<number, number>();
  for (const idea of input.ideas) {
    assertWholeAmount(idea.cost, `cost of idea ${idea.id}`);
    if (costs.has(idea.id)) throw new RangeError(`Idea ${idea.id} is listed twice`);
    costs.set(idea.id, idea.cost);
    supporters.set(idea.id, []);
  }
  input.ballots.forEach((ballot, voter) => {
    for (const ideaId of new Set(ballot)) supporters.get(ideaId)?.push(voter);
  });
  const ideas = [...supporters]
    .filter(([, voters]) => voters.length > 0)
    .map(([id, voters]) => ({ id, cost: costs.get(id)!, supporters: Int32Array.from(voters) }))
    .sort((a, b) => a.id - b.id);
  return { voters: input.ballots.length, ideas, budget: input.budget };
}
