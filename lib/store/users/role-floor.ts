/**
 * Role floors: when a site user linked to an auth-server user is deleted or anonymized, the site keeps
 * the role it had given that person (`PK=SITE#<s>, SK=ROLEFLOOR#<hash>`, `role`), so a later login
 * that creates a fresh site user cannot adopt a higher role from the auth server's userinfo than the
 * site last gave (docs/login.md "Role floor"). Without it, a demoted admin whose auth-server user
 * still says `admin` would be admin again after deleting themself and logging in.
 *
 * The key is an HMAC of (site, auth server, external id), not the id itself: anonymization removes the
 * link to the person, and the floor must not put it back in readable form. The HMAC key is derived
 * from the server key for this purpose only (lib/crypto/derive-key.ts).
 */
import { createHmac } from 'node:crypto';
import type { Role } from '#schemas/roles';
import { purposeKey } from '#lib/crypto/derive-key';
import { TABLE } from '#lib/store/db/client';
import { type Key } from '#lib/store/db/keys';
import { userKeys } from '#lib/store/users/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedRoleFloor } from '#schemas/stored/user';
import { type TransactItem } from '#lib/store/db/transact';

/** The floor item's key for one person on one site (JSON array input: no two triples collide). */
export function roleFloorKey(siteId: number, authServer: string, externalUserId: string): Key {
  const hash = createHmac('sha256', purposeKey('roleFloor')).update(JSON.stringify([siteId, authServer, externalUserId])).digest('base64url');
  return userKeys.roleFloor(siteId, hash);
}

export const roleFloorCodec = defineCodec<{ role: string }, [siteId: number, authServer: string, externalUserId: string]>({
  kind: 'role floor',
  schema: storedRoleFloor,
  keys: (_floor, siteId, authServer, externalUserId) => roleFloorKey(siteId, authServer, externalUserId),
});

/**
 * The Put of a linked user's floor (their stored role), for the transaction that removes the link
 * (delete, anonymize); nothing for a user without a link. Overwrites an older floor: the role stored
 * now is what the site last gave, and a re-created user never started above the old floor.
 */
export function roleFloorPut(user: { siteId: number; role: Role; authServer?: string | null; externalUserId?: string | null }): TransactItem[] {
  if (!user.authServer || !user.externalUserId) return [];
  return [{ Put: { TableName: TABLE, Item: roleFloorCodec.toItem({ role: user.role }, user.siteId, user.authServer, user.externalUserId) } }];
}
