/**
 * Per-idea, per-opinion vote counts. The store keeps one counter per idea and opinion and moves it in
 * the same transaction as the votes, so a round has to say exactly how much each counter changes.
 */
import type { Tally } from '#lib/votes/types';

interface VoteLike {
  ideaId: number;
  opinion: string;
}

/** Adds `by` to the counter of (`ideaId`, `opinion`), dropping counters and ideas that reach zero. */
function bump(tally: Tally, ideaId: number, opinion: string, by: number): void {
  // A null-prototype object: opinions are user input, and `__proto__` must stay an ordinary key.
  const perOpinion = tally.get(ideaId) ?? (Object.create(null) as Record<string, number>);
  const value = (perOpinion[opinion] ?? 0) + by;
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a null-prototype counter map: a count back at zero goes
  if (value === 0) delete perOpinion[opinion];
  else perOpinion[opinion] = value;
  if (Object.keys(perOpinion).length === 0) tally.delete(ideaId);
  else tally.set(ideaId, perOpinion);
}

/** Counts votes per idea and opinion. */
export function countVotes(votes: Iterable<VoteLike>): Tally {
  const tally: Tally = new Map();
  for (const v of votes) bump(tally, v.ideaId, v.opinion, 1);
  return tally;
}

/** Net change from the `before` votes to the `after` votes; zero entries are left out. */
export function tallyDifference(before: Iterable<VoteLike>, after: Iterable<VoteLike>): Tally {
  const tally: Tally = new Map();
  for (const v of after) bump(tally, v.ideaId, v.opinion, 1);
  for (const v of before) bump(tally, v.ideaId, v.opinion, -1);
  return tally;
}

/** Adds `delta` into `into` (mutates and returns it); used to apply deltas to running counters. */
export function addTally(into: Tally, delta: Tally): Tally {
  for (const [ideaId, perOpinion] of delta) {
    for (const [opinion, by] of Object.entries(perOpinion)) bump(into, ideaId, opinion, by);
  }
  return into;
}
