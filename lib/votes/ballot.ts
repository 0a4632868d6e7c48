/**
 * The ballot types (`count`, `budgeting` and their per-theme forms): a round is the user's choice of
 * ideas, and `withExisting` says what a second round does to the first (spec "Vote behaviour by type"):
 * - `error`: a user who holds votes may not vote again (409).
 * - `replace`: the round becomes the whole ballot. An idea voted again with the same opinion keeps its
 *   old record, so it is neither deleted and re-created nor counted twice.
 * - `merge`: the round is added to the held votes; a round naming an idea already held is a 409, since
 *   silently replacing or ignoring that vote would change the ballot in a way the voter did not ask for.
 * Limits are checked afterwards on the resulting set (see limits.ts).
 */
import { conflict } from '#lib/errors';
import type { SetChange } from '#lib/votes/likes';
import type { BallotVote, CastVote, PlannedVote, WithExisting } from '#lib/votes/types';

const keepAll = (existing: readonly BallotVote[]): PlannedVote[] =>
  existing.map((vote) => ({ ideaId: vote.ideaId, opinion: vote.opinion, keep: vote }));

function replace(existing: readonly BallotVote[], round: readonly CastVote[]): SetChange {
  const kept = new Set<BallotVote>();
  const added: CastVote[] = [];
  const next = round.map(({ ideaId, opinion }): PlannedVote => {
    const keep = existing.find((vote) => !kept.has(vote) && vote.ideaId === ideaId && vote.opinion === opinion);
    if (keep) {
      kept.add(keep);
      return { ideaId, opinion, keep };
    }
    added.push({ ideaId, opinion });
    return { ideaId, opinion };
  });
  return { next, added, removed: existing.filter((vote) => !kept.has(vote)) };
}

function merge(existing: readonly BallotVote[], round: readonly CastVote[]): SetChange {
  const held = new Set(existing.map((vote) => vote.ideaId));
  const overlap = round.filter((entry) => held.has(entry.ideaId)).map((entry) => entry.ideaId);
  if (overlap.length > 0) {
    throw conflict(
      `You already voted for idea ${overlap.join(', ')}; on this site a new round can only add ideas you have not voted for`,
    );
  }
  const added = round.map(({ ideaId, opinion }) => ({ ideaId, opinion }));
  return { next: [...keepAll(existing), ...added.map((vote) => ({ ...vote }))], added, removed: [] };
}

export function planBallot(withExisting: WithExisting, existing: readonly BallotVote[], round: readonly CastVote[]): SetChange {
  if (existing.length > 0 && withExisting === 'error') {
    throw conflict('You have already voted; on this site a vote cannot be changed');
  }
  // With no held votes all three modes mean the same: the round is the ballot.
  return withExisting === 'merge' ? merge(existing, round) : replace(existing, round);
}
