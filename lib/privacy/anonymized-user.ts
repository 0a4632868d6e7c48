/**
 * The anonymized form of a site user (spec "User", rule 1; "extraData of users" rule 7): a whitelist,
 * not a list of fields to clear, so personal data in fields added later (or kept from the auth server)
 * cannot survive. Kept: the id (ideas, arguments and votes point at it), the site, the role and the
 * creation time. Names become `config.users.anonymize.firstName` / `lastName`; everything else that
 * describes the person is emptied, and the auth-server link is gone (no `externalUserId`, no
 * `authServer`). `anonymizedAt` makes the caller resolution treat the user as gone, so their tokens
 * stop working (lib/auth/caller.ts).
 */
import type { SiteConfig } from '#lib/sites/config-defaults';
import type { UserItem } from '#lib/store/users/users';

export function anonymizedUser(user: UserItem, config: SiteConfig, now: string): UserItem {
  return {
    id: user.id,
    siteId: user.siteId,
    role: user.role,
    email: null,
    firstName: config.users.anonymize.firstName,
    lastName: config.users.anonymize.lastName,
    nickName: null,
    extraData: {},
    externalUserId: null,
    authServer: null,
    listableByRole: null,
    detailsViewableByRole: null,
    gender: null,
    signedUpForNewsletter: null,
    createdAt: user.createdAt,
    updatedAt: now,
    anonymizedAt: now,
  };
}

/** Done already: anonymized and no longer linked (the two are written together). */
export const isAnonymized = (user: UserItem): boolean => Boolean(user.anonymizedAt) && !user.externalUserId;
