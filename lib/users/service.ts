/**
 * The user endpoints. The auth server is the source of truth: for a user linked to it, a change goes
 * there first and the local cache is then written from what the auth server answered; when the auth
 * server fails, the 502 leaves the cache untouched. Users of a site without an auth server (and users
 * unlinked by anonymization) live only here.
 */
import { isDeepStrictEqual } from 'node:util';
import * as access from '#lib/auth/access';
import { isPlainObject, safeEntries } from '#lib/extra-data/plain-object';
import type { Caller } from '#lib/auth/caller';
import { badRequest, conflict, notFound, unauthorized } from '#lib/errors';
import { logger } from '#lib/log/logger';
import * as authServer from '#lib/auth-server/client';
import { authServerByUrl, defaultAuthServerOrNone } from '#lib/auth-server/config';
import type { Site } from '#lib/sites/site';
import { withNewUserId } from '#lib/store/db/ids';
import type { PageRequest } from '#lib/store/db/query';
import { fitsInItem } from '#lib/store/db/storable';
import * as store from '#lib/store/users/users';
import type { UserItem } from '#lib/store/users/users';
import { authExtraDataAfter, cacheFieldsFromAuth, type SiteRecordValues } from '#lib/users/auth-fields';
import { assertValidUserExtraData } from '#lib/users/extra-data';
import { fullUserRecord, userRecordFor } from '#lib/users/record';
import { readForSite, siteSpecificFields, writeForSite } from '#lib/users/site-specific';
import type { CreateUserBody, UpdateUserBody, UserRecord } from '#schemas/user';
import { REPLAN, withReplan } from '#lib/store/db/replan';
import { linkedSiteUsers } from '#lib/store/users/owned-items';


const isLinked = (item: UserItem): item is UserItem & { authServer: string; externalUserId: string } =>
  Boolean(item.authServer && item.externalUserId);

/** The per-site record fields sent in a body; `nickName` only where the site allows nicknames. */
function recordPatchOf(body: UpdateUserBody, site: Site): Partial<SiteRecordValues> {
  const patch: Partial<SiteRecordValues> = {};
  if (body.nickName !== undefined && site.config.users.allowUseOfNicknames) patch.nickName = body.nickName;
  if (body.listableByRole !== undefined) patch.listableByRole = body.listableByRole;
  if (body.detailsViewableByRole !== undefined) patch.detailsViewableByRole = body.detailsViewableByRole;
  if (body.gender !== undefined) patch.gender = body.gender;
  if (body.signedUpForNewsletter !== undefined) patch.signedUpForNewsletter = body.signedUpForNewsletter;
  return patch;
}

function namesOf(body: UpdateUserBody) {
  const names: { email?: string; firstName?: string | null; lastName?: string | null } = {};
  if (body.email !== undefined) names.email = body.email;
  if (body.firstName !== undefined) names.firstName = body.firstName;
  if (body.lastName !== undefined) names.lastName = body.lastName;
  return names;
}

/**
 * extraData merges key by key, so a user can grow past what one item holds (and a linked user's cache
 * holds every site's entries). Checked before anything is written, here or on the auth server.
 */
function assertFits(target: UserItem, changes: Record<string, unknown>): void {
  const next = { ...target, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  if (!fitsInItem(next)) throw badRequest('The user would be larger than the 400 KB a record can hold; remove extraData first');
}

async function loadUser(site: Site, caller: Caller, userId: number, reuseCaller = true): Promise<UserItem> {
  // The caller's own record was read for this request already (lib/auth/caller.ts).
  if (reuseCaller && caller.kind === 'user' && caller.userId === userId && caller.siteId === site.id) return caller.user;
  const item = await store.getUser(site.id, userId);
  if (!item) throw notFound(`User ${userId} not found on site ${site.id}`);
  return item;
}

/**
 * One page of users, without those whose `listableByRole` is above the caller's role: such a page holds
 * fewer records than `pageSize` (CONTRACT allows it), and the request count stays one Query.
 */
export async function listUsers(site: Site, caller: Caller, page: PageRequest) {
  access.user.list(caller);
  const result = await store.listUsers(site.id, page);
  const listed = result.items.filter((item) => access.user.listsUser(caller, item));
  return { records: listed.map((item) => fullUserRecord(item, site.config, caller)), nextCursor: result.nextCursor };
}

export async function getUserRecord(site: Site, caller: Caller, userId: number) {
  return userRecordFor(await loadUser(site, caller, userId), site.config, caller);
}

/** `/oauth/site/:SITE_ID/me`: the caller's own record; a service token is nobody's. */
export function ownRecord(site: Site, caller: Caller): UserRecord {
  if (caller.kind !== 'user') throw unauthorized('Log in as a user of this site to see your own record');
  return fullUserRecord(caller.user, site.config, caller);
}

export async function createUser(site: Site, caller: Caller, body: CreateUserBody): Promise<UserRecord> {
  access.user.create(caller, site.config);
  const role = body.role ?? 'member';
  access.user.grant(caller, role);
  assertValidUserExtraData(body.extraData, site.config);
  const fields = siteSpecificFields(site.config.users);
  const recordPatch = recordPatchOf(body, site);
  const server = defaultAuthServerOrNone(site.id, site.config);
  const now = new Date().toISOString();

  if (!server) {
    const extraData = writeForSite({}, body.extraData ?? {}, site.id, fields);
    const itemWith = (id: number): UserItem => ({
      id,
      siteId: site.id,
      role,
      email: body.email,
      firstName: body.firstName ?? null,
      lastName: body.lastName ?? null,
      nickName: recordPatch.nickName ?? null,
      listableByRole: recordPatch.listableByRole ?? null,
      detailsViewableByRole: recordPatch.detailsViewableByRole ?? null,
      gender: recordPatch.gender ?? null,
      signedUpForNewsletter: recordPatch.signedUpForNewsletter ?? null,
      extraData,
      externalUserId: null,
      authServer: null,
      createdAt: now,
      updatedAt: now,
    });
    const item = await withNewUserId(async (id) => {
      const made = itemWith(id);
      await store.putNewUser(made);
      return made;
    });
    return fullUserRecord(item, site.config, caller);
  }

  // No role: roles are per site and belong to the API (CONTRACT "Decided details, security").
  const authUser = await authServer.createUser(server, {
    email: body.email,
    firstName: body.firstName ?? null,
    lastName: body.lastName ?? null,
    extraData: authExtraDataAfter({}, body.extraData, recordPatch, site.id, fields),
  });
  const externalUserId = String(authServer.externalIdOf(authUser));
  const itemWith = (id: number): UserItem => ({
    id,
    siteId: site.id,
    role,
    ...cacheFieldsFromAuth(authUser, site.id),
    externalUserId,
    authServer: server.url,
    createdAt: now,
    updatedAt: now,
  });
  // The id is made here, with no request: a taken one is replaced without asking the auth server again.
  let item: UserItem;
  let stored: boolean;
  try {
    [item, stored] = await withNewUserId(async (id) => {
      const made = itemWith(id);
      return [made, await store.putNewUser(made)] as const;
    });
  } catch (err) {
    // The auth server made a user that no site has: take it back so a retry can start clean.
    await authServer.deleteUser(server, externalUserId).catch((undo: unknown) =>
      logger.error('could not undo an auth-server user after a failed local create', { error: (undo as Error).message }),
    );
    throw err;
  }
  if (!stored) throw conflict('This auth-server user already has a user on this site');
  return fullUserRecord(item, site.config, caller);
}

/**
 * The e-mail counts as changed only when it differs from the stored one; sending the same address
 * back (a CMS form with every field) changes nothing and needs no more than any other field.
 */
const changesEmail = (body: UpdateUserBody, target: UserItem) => body.email !== undefined && body.email !== target.email;

/**
 * A field stored on the one auth-server user changes (besides the e-mail): firstName, lastName, or an
 * extraData field this site does not keep site-specific (its plain value is every other site's
 * fallback). Sending back what is stored changes nothing, like the e-mail.
 */
function changesSharedFields(body: UpdateUserBody, target: UserItem, siteId: number, fields: Set<string>): boolean {
  if (body.firstName !== undefined && body.firstName !== (target.firstName ?? null)) return true;
  if (body.lastName !== undefined && body.lastName !== (target.lastName ?? null)) return true;
  if (!isPlainObject(body.extraData)) return false;
  const view = readForSite(target.extraData ?? {}, siteId, fields);
  return safeEntries(body.extraData).some(
    ([field, value]) => value !== undefined && !fields.has(field) && !isDeepStrictEqual(view[field] ?? null, value),
  );
}

/** The person's auth-server user also has a site user on another site (one GSI1 Query, linked users only). */
async function isSharedIdentity(target: UserItem): Promise<boolean> {
  if (!isLinked(target)) return false;
  const sites = await linkedSiteUsers(store.externalKeyOf(target.authServer, target.externalUserId));
  return sites.some((u) => u.siteId !== target.siteId);
}

export async function updateUser(site: Site, caller: Caller, userId: number, body: UpdateUserBody): Promise<UserRecord> {
  const fields = siteSpecificFields(site.config.users);
  const recordPatch = recordPatchOf(body, site);
  // Before the read: what the id alone decides (a 403 says nothing about whether the user exists).
  access.user.actOn(caller, { id: userId, siteId: site.id }, { role: body.role });

  return withReplan(async (attempt) => {
    const target = await loadUser(site, caller, userId, attempt === 1);
    const emailChanges = changesEmail(body, target);
    const sharedFields = changesSharedFields(body, target, site.id, fields);
    // Only a change of what the auth-server user holds for every site pays for the index read that
    // tells whether the person is on other sites too.
    const sharedIdentity = (emailChanges || sharedFields) && (await isSharedIdentity(target));
    access.user.actOn(caller, target, { role: body.role, email: emailChanges, sharedFields, sharedIdentity });
    assertValidUserExtraData(body.extraData, site.config);
    const names = namesOf(body);
    if (!emailChanges) delete names.email;
    const now = new Date().toISOString();

    if (isLinked(target)) {
      const server = authServerByUrl(site.id, site.config, target.authServer);
      // Never a role: roles are per site and live here only (CONTRACT "Decided details, security").
      const changes: authServer.AuthUserChanges = { ...names };
      if (body.extraData !== undefined || Object.keys(recordPatch).length > 0) {
        // Fresh from the source: the extraData holds every site's entries, and only ours may change.
        const current = await authServer.fetchUser(server, target.externalUserId);
        changes.extraData = authExtraDataAfter(current.extraData ?? {}, body.extraData, recordPatch, site.id, fields);
      }
      const roleChanges = body.role !== undefined && body.role !== target.role;
      if (Object.keys(changes).length === 0 && !roleChanges) return fullUserRecord(target, site.config, caller);
      assertFits(target, { ...changes });
      const fromAuth = Object.keys(changes).length > 0 ? await authServer.updateUser(server, target.externalUserId, changes) : undefined;
      const updated = await store.updateUser(site.id, target.id, {
        ...(roleChanges ? { role: body.role } : {}),
        ...(fromAuth ? cacheFieldsFromAuth(fromAuth, site.id) : {}),
        updatedAt: now,
      });
      if (!updated) throw notFound(`User ${userId} not found on site ${site.id}`);
      return fullUserRecord(updated, site.config, caller);
    }

    const changes = {
      ...names,
      ...recordPatch,
      role: body.role,
      extraData: body.extraData === undefined ? undefined : writeForSite(target.extraData ?? {}, body.extraData, site.id, fields),
      updatedAt: now,
    };
    assertFits(target, changes);
    const updated = await store.updateUser(site.id, target.id, changes, { ifUpdatedAt: target.updatedAt });
    return updated ? fullUserRecord(updated, site.config, caller) : REPLAN;
  }, () => conflict('The user was changed at the same time; please try again'));
}

export async function deleteUser(site: Site, caller: Caller, userId: number): Promise<void> {
  access.user.actOn(caller, { id: userId, siteId: site.id });
  const target = await loadUser(site, caller, userId);
  access.user.actOn(caller, target);
  if (isLinked(target)) {
    const server = authServerByUrl(site.id, site.config, target.authServer);
    const sites = await linkedSiteUsers(store.externalKeyOf(target.authServer, target.externalUserId));
    const elsewhere = sites.some((u) => !(u.siteId === site.id && u.id === target.id));
    // The person stays on the auth server while another site still has them.
    if (!elsewhere) await authServer.deleteUser(server, target.externalUserId);
  }
  await store.deleteUser(target);
}
