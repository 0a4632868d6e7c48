/**
 * The user an activity or anonymization request is about, and the same person's site users on other sites, found through the auth-server
 * link on GSI1, never by scanning.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { notFound } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import { externalKeyOf, getUser, type UserItem } from '#lib/store/users/users';

/**
 * The target of an activity read (`act` absent: the user themself or a moderator, `access.ownData`) or
 * of an anonymization (`act`: THE rule for acting on a user, `access.user.actOn`, checked before the
 * read with the id alone and again with the record). Access first, so a member learns nothing about
 * whether another user id exists (403 either way).
 */
export async function loadOwnDataTarget(site: Site, caller: Caller, userId: number, act?: access.UserAction): Promise<UserItem> {
  if (act) access.user.actOn(caller, { id: userId, siteId: site.id }, act);
  else access.ownData(caller, { id: userId, siteId: site.id });
  const user = await readTarget(site, caller, userId);
  if (act) access.user.actOn(caller, user, act);
  return user;
}

async function readTarget(site: Site, caller: Caller, userId: number): Promise<UserItem> {
  // The caller's own record was read for this request already (lib/auth/caller.ts).
  if (caller.kind === 'user' && caller.userId === userId && caller.siteId === site.id) return caller.user;
  const user = await getUser(site.id, userId);
  if (!user) throw notFound(`User ${userId} not found on site ${site.id}`);
  return user;
}

/** The key of the auth-server user behind a site user; undefined for local-only (or unlinked) users. */
export const externalKeyOfUser = (user: UserItem): string | undefined =>
  user.authServer && user.externalUserId ? externalKeyOf(user.authServer, user.externalUserId) : undefined;

/** Site users in a stable order (site id, then user id), each (site, user) pair once. */
export function bySite<T extends { siteId: number; id: number }>(users: T[]): T[] {
  const unique = new Map(users.map((u) => [`${u.siteId}:${u.id}`, u]));
  return [...unique.values()].sort((a, b) => a.siteId - b.siteId || a.id - b.id);
}
