/**
 * `likes`: every idea is its own toggle (spec "Vote behaviour by type"). Per idea in the round:
 * no held vote -> add it; the same opinion again -> cancel (remove); the other opinion -> remove the
 * held vote and add the new one. Votes on ideas outside the round stay as they are.
 *
 * `withExisting` and `minIdeas`/`maxIdeas` do not apply: a like is about one idea, not a ballot, and
 * OpenStad checks likes per idea too. (A round is still capped by the body limit of 500 entries.)
 */
import type { BallotVote, CastVote, PlannedVote } from '#lib/votes/types';

export interface SetChange {
  next: PlannedVote[];
  added: CastVote[];
  removed: BallotVote[];
}

export function planLikes(existing: readonly BallotVote[], round: readonly CastVote[]): SetChange {
  const heldByIdea = new Map<number, BallotVote[]>();
  for (const vote of existing) heldByIdea.set(vote.ideaId, [...(heldByIdea.get(vote.ideaId) ?? []), vote]);

  const added: CastVote[] = [];
  const removed = new Set<BallotVote>();
  for (const { ideaId, opinion } of round) {
    // A well-formed ballot holds at most one like per idea; should it hold more, all of them go, so the
    // toggle always ends in zero or one vote on the idea.
    const held = heldByIdea.get(ideaId) ?? [];
    for (const vote of held) removed.add(vote);
    if (!held.some((vote) => vote.opinion === opinion)) added.push({ ideaId, opinion });
  }

  const next: PlannedVote[] = [
    ...existing.filter((vote) => !removed.has(vote)).map((vote) => ({ ideaId: vote.ideaId, opinion: vote.opinion, keep: vote })),
    ...added.map((vote) => ({ ...vote })),
  ];
  return { next, added, removed: existing.filter((vote) => removed.has(vote)) };
}
