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
  }

  // Kept votes cancel out, so added minus removed is exactly (next minus existing). A rejected vote was
  // counted nowhere: removing it (the voter's new round replaces or takes it back, as OpenStad's rounds
  // deleted rejected rows) moves no count.
  return { ...change, tallyDeltas: tallyDifference(change.removed.filter((vote) => !vote.review?.rejected), change.added) };
}
