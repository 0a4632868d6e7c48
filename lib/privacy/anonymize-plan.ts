/**
 * What an anonymization touches (spec "User", rules 1-4), read before anything is written: the
 * `will-*` previews answer with it, the `do-*` calls answer with it and then carry it out.
 *
 *   scope 'site'  the user of this site; the auth-server user is deleted only when no other site
 *                 still has a user linked to it;
 *   scope 'all'   the same person's user on every site (through the auth-server link on GSI1), and
 *                 the auth-server user is deleted.
 *
 * Per site user: its ideas, articles, arguments (kept, reported), its ballot (votes are removed, and
 * reported, only while voting is open on that site) and its newsletter signups (deleted), all from ONE
 * GSI1 Query (lib/store/users/owned-items.ts).
 */
import type { Caller } from '#lib/auth/caller';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import { ALL_OWNED_KINDS, itemsOwnedBy, linkedSiteUsers, type OwnedItems } from '#lib/store/users/owned-items';
import { getShownBallot } from '#lib/store/ballots/ballots';
import { getSitesByIds } from '#lib/store/sites/sites';
import type { UserItem } from '#lib/store/users/users';
import { mergeRecords, ownedRecords, siteSummaryOf } from '#lib/privacy/activity-records';
import { bySite, externalKeyOfUser, loadOwnDataTarget } from '#lib/privacy/own-data';
import { fullUserRecord } from '#lib/users/record';
import { votingAvailability } from '#lib/votes/availability';
import type { AnonymizationResponse } from '#schemas/user-activity';

export type AnonymizeScope = 'site' | 'all';

export interface SiteUserPlan {
  site: Site;
  user: UserItem;
  owned: OwnedItems;
  /** Voting is open on the site now: the user's votes there are removed. */
  votingOpen: boolean;
}

interface AnonymizationPlan {
  /** The target (this site's user) is the LAST step: a retry after a failure finds the rest through its link. */
  steps: SiteUserPlan[];
  /** The auth-server user to delete: no site outside this plan still has a user linked to it. */
  authDelete: { authServer: string; externalUserId: string } | undefined;
}

interface PlanOptions {
  /** For `do-*`: ballots are read strongly consistently, so a vote cast just now is not missed. */
  forWrite: boolean;
  now?: Date;
}

export async function planAnonymization(
  site: Site,
  caller: Caller,
  userId: number,
  scope: AnonymizeScope,
  options: PlanOptions,
): Promise<AnonymizationPlan> {
  const now = options.now ?? new Date();
  // Acting on the person: on this site by the rule of `access.user.actOn`; on every site only by the
  // person themself or a service token (a site's staff have no authority over the other sites).
  const target = await loadOwnDataTarget(site, caller, userId, { everySite: scope === 'all' });
  const externalKey = externalKeyOfUser(target);
  const linked = externalKey ? await linkedSiteUsers(externalKey) : [];
  const others = bySite(linked.filter((u) => !(u.siteId === target.siteId && u.id === target.id)));

  const included = scope === 'all' ? others : [];
  const otherSites = await getSitesByIds([...new Set(included.map((u) => u.siteId))]);
  const sites = new Map<number, Site>([
    [site.id, site],
    ...otherSites.map((s) => [s.id, { ...s, config: withDefaults(s.config) }] as const),
  ]);
  // A site deleted meanwhile took its users along; an index entry that lags behind is skipped.
  const users = [...included.filter((u) => sites.has(u.siteId)), target];

  const steps = await Promise.all(
    users.map(async (user): Promise<SiteUserPlan> => {
      const userSite = sites.get(user.siteId)!;
      const votingOpen = votingAvailability(userSite.config.votes, now).open;
      const [owned, ballot] = await Promise.all([
        itemsOwnedBy(user.siteId, user.id, ALL_OWNED_KINDS),
        options.forWrite && votingOpen ? getShownBallot(user.siteId, user.id, true) : undefined,
      ]);
      return { site: userSite, user, owned: options.forWrite && votingOpen ? { ...owned, ballot } : owned, votingOpen };
    }),
  );

  const deleteOnAuthServer = target.authServer && target.externalUserId && (scope === 'all' || others.length === 0);
  return {
    steps,
    authDelete: deleteOnAuthServer ? { authServer: target.authServer!, externalUserId: target.externalUserId! } : undefined,
  };
}

/** The answer of all four paths: what the plan touches, as it is before anything is written. */
export function beforeState(plan: AnonymizationPlan, caller: Caller): AnonymizationResponse {
  const steps = [...plan.steps].sort((a, b) => a.user.siteId - b.user.siteId || a.user.id - b.user.id);
  const siteIds = [...new Set(steps.map((s) => s.site.id))];
  return {
    ...mergeRecords(steps.map((s) => ownedRecords(s.owned, s.votingOpen))),
    users: steps.map((s) => fullUserRecord(s.user, s.site.config, caller)),
    sites: siteIds.map((id) => siteSummaryOf(steps.find((s) => s.site.id === id)!.site)),
  };
}
