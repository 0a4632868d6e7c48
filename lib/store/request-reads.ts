/**
 * What every site-scoped request reads first, planned for its one BatchGet (lib/store/prefetch.ts):
 * the site and, when a verified token names one, the calling user. Routes add their own plans.
 */
import { keys } from '#lib/store/keys';
import type { ReadPlan } from '#lib/store/prefetch';

export function siteAndCallerPlan(siteId: number | undefined, caller: { siteId: number; userId: number } | undefined): ReadPlan {
  return {
    keys: [...(siteId !== undefined ? [keys.site(siteId)] : []), ...(caller ? [keys.user(caller.siteId, caller.userId)] : [])],
    consistent: false,
  };
}

/** The caller's ballot on a site (an idea list's `includeUserVote`). */
export const ballotPlan = (siteId: number, userId: number): ReadPlan => ({ keys: [keys.ballot(siteId, userId)], consistent: false });

/** An idea and its tally (an idea page). */
export const ideaPlan = (siteId: number, ideaId: number): ReadPlan => ({ keys: [keys.idea(siteId, ideaId), keys.ideaTally(siteId, ideaId)], consistent: false });
