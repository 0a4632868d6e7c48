/**
 * `GET /api/site/:SITE_ID/user/:USER_ID/export` (GDPR art. 15/20; CONTRACT "Decided
 * details, results and exports"): every record the API holds about the person, on every site where
 * the same auth-server user has a site user, as one document `{users, ideas, articles, arguments,
 * votes, newsletterSignups}`. The user themself, an admin of this site or a service token; only the
 * person and a service token get the other sites' data, an admin of this site gets this site's records
 * (`access.results.userExportsEverySite`, the rule of `do-anonymizeall`).
 *
 * The reads are the anonymization plan's (lib/privacy/anonymize-plan.ts): the person's site users through
 * the auth-server link on GSI1, then per site user ONE GSI1 Query of everything it owns (ideas,
 * articles, arguments, the ballot and the newsletter signups, lib/store/users/owned-items.ts), and one BatchGet
 * of the other sites. Constant per site the person is on.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { toSignupRecord } from '#lib/newsletter/record';
import { withDefaults, type SiteConfig } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import { ALL_OWNED_KINDS, itemsOwnedBy, linkedSiteUsers } from '#lib/store/users/owned-items';
import { getSitesByIds } from '#lib/store/sites/sites';
import { mergeRecords, ownedRecords } from '#lib/privacy/activity-records';
import { bySite, externalKeyOfUser, loadOwnDataTarget } from '#lib/privacy/own-data';
import { fullUserRecord } from '#lib/users/record';
import type { UserExportResponse } from '#schemas/results';

export async function exportUserData(site: Site, caller: Caller, userId: number): Promise<UserExportResponse> {
  // Access first, with the id alone: a 403 says nothing about whether the user exists.
  access.results.userExport(caller, { id: userId, siteId: site.id });
  const target = await loadOwnDataTarget(site, caller, userId);
  const externalKey = externalKeyOfUser(target);
  const everySite = access.results.userExportsEverySite(caller, target);
  const linked = externalKey && everySite ? await linkedSiteUsers(externalKey) : [];
  // The index is eventually consistent: the target itself is always in, as read.
  const users = bySite([target, ...linked.filter((u) => !(u.siteId === target.siteId && u.id === target.id))]);

  const otherSiteIds = [...new Set(users.map((u) => u.siteId).filter((id) => id !== site.id))];
  const [owned, otherSites] = await Promise.all([Promise.all(users.map((u) => itemsOwnedBy(u.siteId, u.id, ALL_OWNED_KINDS))), getSitesByIds(otherSiteIds)]);
  const configs = new Map<number, SiteConfig>([[site.id, site.config], ...otherSites.map((s) => [s.id, withDefaults(s.config)] as const)]);
  // A site deleted meanwhile took its users along; an index entry that lags behind is skipped.
  const present = users.map((user, i) => ({ user, owned: owned[i]! })).filter(({ user }) => configs.has(user.siteId));

  return {
    users: present.map(({ user }) => fullUserRecord(user, configs.get(user.siteId)!, caller)),
    ...mergeRecords(present.map(({ owned: items }) => ownedRecords(items, true))),
    newsletterSignups: present.flatMap(({ owned: items }) => items.signups.map((signup) => toSignupRecord(signup))),
  } as UserExportResponse;
}
