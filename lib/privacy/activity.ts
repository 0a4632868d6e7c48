/**
 * `GET /api/site/:SITE_ID/user/:USER_ID/activity` (spec "User", CONTRACT "Activity"): what a person
 * wrote and voted, on this site and, unless `includeOtherSites=0`, on every other site where the same
 * auth-server user has a site user. Another site closed by Basic Auth is left out for everyone but a
 * service token (`access.seesClosedSiteActivity`).
 *
 * Cost, constant per site involved: the target user (unless it is the caller), one GSI1 Query for the
 * person's other site users (only for a linked user with `includeOtherSites`), then in parallel ONE
 * GSI1 Query per site user (all asked-for kinds at once, lib/store/users/owned-items.ts) and one BatchGet of
 * the other sites' records. docs/data-model.md "Activity and anonymization" has the measured figures.
 */
import { seesClosedSiteActivity } from '#lib/auth/access';
import { isBasicAuthActive } from '#lib/auth/basic-auth';
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import { withDefaults } from '#lib/sites/config-defaults';
import { itemsOwnedBy } from '#lib/store/users/owned-items';
import { getSitesByIds } from '#lib/store/sites/sites';
import { linkedSiteUsers } from '#lib/store/users/owned-items';
import { kindsAsked, ownedKindsOf } from '#lib/privacy/activity-kinds';
import { mergeRecords, ownedRecords, siteSummaryOf } from '#lib/privacy/activity-records';
import { bySite, externalKeyOfUser, loadOwnDataTarget } from '#lib/privacy/own-data';
import type { ActivityQuery, ActivityResponse } from '#schemas/user-activity';

export async function userActivity(site: Site, caller: Caller, userId: number, query: ActivityQuery): Promise<ActivityResponse> {
  const target = await loadOwnDataTarget(site, caller, userId);
  const kinds = kindsAsked(query);

  const externalKey = externalKeyOfUser(target);
  const linked = (query.includeOtherSites ?? true) && externalKey ? await linkedSiteUsers(externalKey) : [];
  // The index is eventually consistent: the target itself is always in, whatever it says.
  const siteUsers = bySite([{ siteId: site.id, id: target.id }, ...linked]);
  const otherSiteIds = [...new Set(siteUsers.map((u) => u.siteId).filter((id) => id !== site.id))];

  const [owned, otherSites] = await Promise.all([
    Promise.all(siteUsers.map((u) => itemsOwnedBy(u.siteId, u.id, ownedKindsOf(kinds)))),
    getSitesByIds(otherSiteIds),
  ]);
  // A site closed by Basic Auth shows nothing here but to a service token (like the public site list).
  const shown = seesClosedSiteActivity(caller) ? otherSites : otherSites.filter((s) => !isBasicAuthActive(withDefaults(s.config)));
  const sites = new Map([[site.id, siteSummaryOf(site)], ...shown.map((s) => [s.id, siteSummaryOf(s)] as const)]);
  // A site deleted meanwhile took its users along; an index entry that lags behind is skipped; so is a
  // closed site the caller may not see.
  const present = siteUsers.map((u, i) => ({ user: u, owned: owned[i]! })).filter(({ user }) => sites.has(user.siteId));

  // Votes follow each site's own visibility: a moderator here may see this site's votes, but another
  // site's only when that site shows its votes publicly; the person always sees their own, and a
  // service token is admin on every site.
  const isSelf = caller.kind === 'user' && caller.siteId === site.id && caller.userId === target.id;
  const seesAll = isSelf || caller.kind === 'service';
  const publicVotes = new Set(otherSites.filter((s) => withDefaults(s.config).votes.isViewable).map((s) => s.id));
  const votesVisibleOn = (siteId: number) => seesAll || siteId === site.id || publicVotes.has(siteId);

  return {
    ...mergeRecords(present.map(({ user, owned: items }) => ownedRecords(items, kinds.votes && votesVisibleOn(user.siteId)))),
    sites: [...new Set(present.map(({ user }) => user.siteId))].map((id) => sites.get(id)!),
  };
}
