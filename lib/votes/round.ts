/**
 * One voting round, decided without side effects: which votes the user holds afterwards, which
 * records to create and delete, and how every tally moves. The store applies the plan in one
 * transaction; a round that breaks a rule throws an ApiError and leaves nothing to apply (a round is
 * all-or-nothing, CONTRACT "Vote").
 *
 * Order of checks: entries on their own (400), then the held votes (`withExisting`, 409), then the
 * limits of the resulting set (400). A malformed round is therefore a 400 even for a user who has
 * already voted.
 */
import { planBallot } from '#lib/votes/ballot';
import { checkEntries } from '#lib/votes/entries';
import { invalidRound } from '#lib/votes/errors';
import { checkLimits } from '#lib/votes/limits';
import { planLikes, type SetChange } from '#lib/votes/likes';
import { tallyDifference } from '#lib/votes/tally';
import type { RoundInput, RoundPlan } from '#lib/votes/types';
import { voteTypeRules } from '#schemas/vote-types';

export function planRound({ config, existing, round, ideas }: RoundInput): RoundPlan {
  if (round.length === 0) throw invalidRound([{ path: '', message: 'A vote round needs at least one vote' }]);

  const entryErrors = checkEntries(config, round, ideas);
  if (entryErrors.length > 0) throw invalidRound(entryErrors);

  let change: SetChange;
  if (voteTypeRules(config.voteType).round === 'toggle') {
    change = planLikes(existing, round);
  } else {
    change = planBallot(config.withExisting, existing, round);
    const limitErrors = checkLimits(config, change.next, ideas);
    if (limitErrors.length > 0) throw invalidRound(limitErrors);
    // A moderator rejects a ballot whole (lib/votes/review.ts). A round that changes it makes a new
    // ballot, counted whole: the votes it keeps count again with the ones it adds. Never in part (some
    // votes counted, the rest not: a ballot the limits never checked). The same ballot sent again
    // changes nothing and stays rejected.
    const changes = change.added.length > 0 || change.removed.length > 0;
    if (changes && existing.some((vote) => vote.review?.rejected)) {
      const recounted = change.next.filter((vote) => vote.keep?.review?.rejected).map(({ ideaId, opinion }) => ({ ideaId, opinion }));
      return { ...change, tallyDeltas: tallyDifference(change.removed.filter((vote) => !vote.review?.rejected), [...change.added, ...recounted]), clearsRejection: { recounted } };
    }
  }

  // Kept votes cancel out, so added minus removed is exactly (next minus existing). A rejected vote was
  // counted nowhere: removing it (the voter's new round replaces or takes it back, as OpenStad's rounds
  // deleted rejected rows) moves no count.
  return { ...change, tallyDeltas: tallyDifference(change.removed.filter((vote) => !vote.review?.rejected), change.added) };
}
