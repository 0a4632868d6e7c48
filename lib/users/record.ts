/**
 * User item -> what a caller may see: the full CONTRACT record for the user themself and moderators
 * and above (`externalUserId` for admins only); the limited public view for everybody else, with
 * names and extraData added for callers who reach the user's `detailsViewableByRole` (CONTRACT
 * "Decided details, lifecycle", Users).
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { SiteConfig } from '#lib/sites/config-defaults';
import type { UserItem } from '#lib/store/users/users';
import { displayNameOf, publicUserView, type PublicUser } from '#lib/users/public-view';
import { readForSite, siteSpecificFields } from '#lib/users/site-specific';
import type { UserRecord } from '#schemas/user';

export function fullUserRecord(item: UserItem, config: SiteConfig, caller: Caller): UserRecord {
  const nickName = config.users.allowUseOfNicknames ? (item.nickName ?? null) : null;
  const record: UserRecord = {
    id: item.id,
    siteId: item.siteId,
    role: item.role,
    email: item.email ?? null,
    firstName: item.firstName ?? null,
    lastName: item.lastName ?? null,
    nickName,
    displayName: displayNameOf(item, config),
    extraData: readForSite(item.extraData ?? {}, item.siteId, siteSpecificFields(config.users)),
    listableByRole: item.listableByRole ?? null,
    detailsViewableByRole: item.detailsViewableByRole ?? null,
    gender: item.gender ?? null,
    signedUpForNewsletter: item.signedUpForNewsletter ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
  if (access.user.seesExternalId(caller)) record.externalUserId = item.externalUserId ?? null;
  return record;
}

/** The public view plus names and extraData, for callers the user's `detailsViewableByRole` lets in (never the e-mail). */
type DetailedUser = PublicUser & Pick<UserRecord, 'firstName' | 'lastName' | 'extraData'>;

export function userRecordFor(item: UserItem, config: SiteConfig, caller: Caller): UserRecord | PublicUser | DetailedUser {
  if (access.user.seesAllFields(caller, item)) return fullUserRecord(item, config, caller);
  if (!access.user.seesDetails(caller, item)) return publicUserView(item, config);
  return {
    ...publicUserView(item, config),
    firstName: item.firstName ?? null,
    lastName: item.lastName ?? null,
    extraData: readForSite(item.extraData ?? {}, item.siteId, siteSpecificFields(config.users)),
  };
}
