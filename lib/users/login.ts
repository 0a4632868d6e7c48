/**
 * The site user behind a login: found through the auth-server link (`EXTUSER#<auth server>|<id>`),
 * created when new (unless `users.canCreateNewUsers` is false: 403), and refreshed from the auth
 * server's userinfo on every login.
 *
 * Roles are per site and belong to the API (CONTRACT "Decided details, security"): the userinfo role
 * (when it is one of ours, else `member`) is used only when the login CREATES the site user; after
 * that the role stored on this site stands, whatever the auth server says on later logins. One auth
 * server serves many sites, so adopting its role would let a grant on one site reach every other.
 *
 * Role floor (docs/login.md): when this site deleted or anonymized an earlier site user of the same
 * person, the created user gets the lower of the userinfo role and the role the site had given then,
 * so a demoted admin cannot become admin again by deleting themself and logging in.
 */
import { isRole, lowerRole } from '#lib/auth/roles';
import { conflict, forbidden } from '#lib/errors';
import { externalIdOf } from '#lib/auth-server/client';
import type { AuthServerConfig } from '#lib/auth-server/config';
import { assertProjectOpen } from '#lib/sites/project';
import type { Site } from '#lib/sites/site';
import { noFreeId, replanIfIdTaken, userIdSource } from '#lib/store/db/ids';
import * as store from '#lib/store/users/users';
import { cacheFieldsFromAuth } from '#lib/users/auth-fields';
import type { AuthServerUser } from '#schemas/oauth';
import { REPLAN, REPLAN_ATTEMPTS, withReplan } from '#lib/store/db/replan';

export async function userForLogin(site: Site, server: AuthServerConfig, authUser: AuthServerUser): Promise<store.UserItem> {
  const externalUserId = String(externalIdOf(authUser));
  const cached = cacheFieldsFromAuth(authUser, site.id);

  // An attempt that loses the race with a concurrent first login (or with an anonymization) starts
  // over from the link, which it then finds (or finds gone); one whose new user id another process
  // took starts over with another id (the same loop and cap). When every attempt met a taken id, the
  // id source is at fault, not a concurrent login: `noFreeId`.
  let idsTaken = 0;
  const ids = {
    next: () => userIdSource.next(),
    skip: () => {
      idsTaken += 1;
      userIdSource.skip();
    },
  };
  return withReplan(async () => {
    const now = new Date().toISOString();
    const { userId: existingId, roleFloor } = await store.findLinkAndRoleFloor(site.id, server.url, externalUserId);
    if (existingId !== undefined) {
      // The names and extraData come from the auth server; the role is not among them. A login is
      // activity (lifecycle: anonymize-inactive); it rides on the update every login makes.
      const updated = await store.updateUser(site.id, existingId, { ...cached, updatedAt: now, lastActivityAt: now });
      // Undefined: the user was anonymized (and unlinked) since the link was read; looking again
      // finds no link and makes the person a new user.
      return updated ?? REPLAN;
    }
    assertProjectOpen(site.config);
    if (!site.config.users.canCreateNewUsers) throw forbidden('New users cannot be created on this site');
    const item: store.UserItem = {
      id: ids.next(),
      siteId: site.id,
      role: lowerRole(isRole(authUser.role) ? authUser.role : 'member', isRole(roleFloor) ? roleFloor : undefined),
      ...cached,
      externalUserId,
      authServer: server.url,
      createdAt: now,
      updatedAt: now,
      lastActivityAt: now,
    };
    return replanIfIdTaken(async () => ((await store.putNewUser(item)) ? item : REPLAN), ids);
  }, () => (idsTaken === REPLAN_ATTEMPTS ? noFreeId() : conflict('Logging in at the same time from two places; please try again')));
}
