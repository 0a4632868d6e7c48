/**
 * The ballots of a budgeting rule in the layout Equal Shares computes on: voters with the same set of
 * approved ideas are one **group** with a weight. Equal Shares treats such voters alike at every step
 * (same budget, same payments), so every sum over supporters is a sum over groups; on a city's ballots
 * (many voters choosing the same one to three popular ideas) that divides the work several times over.
 * Both directions are kept as compressed sparse rows (an offsets array and one flat list), so a run
 * walks typed arrays, not objects:
 *
 *   groupIdeas(g) = groupIdeaList[groupIdeaStart[g] .. groupIdeaStart[g + 1])   ideas of group g
 *   ideaGroups(i) = ideaGroupList[ideaGroupStart[i] .. ideaGroupStart[i + 1])   groups approving idea i
 *   neighbours(i) = neighbourList[neighbourStart[i] .. neighbourStart[i + 1])     ideas sharing a voter with i
 *
 * Ideas are indexes into `ideas` (only ideas with at least one approval, by id ascending: an idea nobody
 * chose never wins). Building it is linear in the approvals (one Map lookup per ballot), plus the squares of the
 * distinct ballots' lengths for the neighbours.
 */
import { collectApprovals, type BudgetInput } from '#lib/results/approvals';

export interface ProfileIdea {
  id: number;
  cost: number;
  /** Voters approving it (the "votes" of the tie-breaking rule). */
  supporters: number;
}

export interface Profile {
  /** Every ballot counts as a voter, also one that approves nothing that can be funded. */
  voters: number;
  budget: number;
  ideas: readonly ProfileIdea[];
  groupWeight: Int32Array;
  groupIdeaStart: Int32Array;
  groupIdeaList: Int32Array;
  ideaGroupStart: Int32Array;
  ideaGroupList: Int32Array;
  /** The other ideas that share at least one voter with idea i (a purchase can change only their prices). */
  neighbourStart: Int32Array;
  neighbourList: Int32Array;
}

export function buildProfile(input: BudgetInput): Profile {
  // Validates amounts and ids, and drops votes for unknown ideas, exactly as the greedy rule sees them.
  const approvals = collectApprovals(input);
  const indexOf = new Map(approvals.ideas.map((idea, index) => [idea.id, index]));
  const groups = new Map<string, number>();
  const weights: number[] = [];
  const members: number[][] = [];
  for (const ballot of input.ballots) {
    const chosen = [...new Set(ballot)].flatMap((id) => {
      const index = indexOf.get(id);
      return index === undefined ? [] : [index];
    });
    if (chosen.length === 0) continue;
    chosen.sort((a, b) => a - b);
    const key = chosen.join(',');
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, weights.length);
      weights.push(1);
      members.push(chosen);
    } else {
      weights[group]! += 1;
    }
  }
  const groupIdeaStart = new Int32Array(members.length + 1);
  members.forEach((ideas, g) => (groupIdeaStart[g + 1] = groupIdeaStart[g]! + ideas.length));
  const groupIdeaList = new Int32Array(groupIdeaStart[members.length]!);
  const perIdea = new Int32Array(approvals.ideas.length);
  members.forEach((ideas, g) => {
    groupIdeaList.set(ideas, groupIdeaStart[g]!);
    for (const i of ideas) perIdea[i]! += 1;
  });
  const ideaGroupStart = new Int32Array(approvals.ideas.length + 1);
  perIdea.forEach((count, i) => (ideaGroupStart[i + 1] = ideaGroupStart[i]! + count));
  const ideaGroupList = new Int32Array(groupIdeaList.length);
  const fill = ideaGroupStart.slice(0, -1);
  members.forEach((ideas, g) => {
    for (const i of ideas) ideaGroupList[fill[i]!++] = g;
  });
  const neighbours = approvals.ideas.map(() => new Set<number>());
  for (const ideas of members) for (const i of ideas) for (const other of ideas) if (other !== i) neighbours[i]!.add(other);
  const neighbourStart = new Int32Array(approvals.ideas.length + 1);
  neighbours.forEach((set, i) => (neighbourStart[i + 1] = neighbourStart[i]! + set.size));
  const neighbourList = new Int32Array(neighbourStart[approvals.ideas.length]!);
  neighbours.forEach((set, i) => neighbourList.set([...set].sort((a, b) => a - b), neighbourStart[i]!));
  return {
    voters: approvals.voters,
    budget: approvals.budget,
    ideas: approvals.ideas.map((idea) => ({ id: idea.id, cost: idea.cost, supporters: idea.supporters.length })),
    groupWeight: Int32Array.from(weights),
    groupIdeaStart,
    groupIdeaList,
    ideaGroupStart,
    ideaGroupList,
    neighbourStart,
    neighbourList,
  };
}
