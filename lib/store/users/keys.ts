/** Keys of site users, their link to the auth-server user, their role floor, what they own (GSI1) and their activity (GSI2). */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

/** What a site user owns on GSI1 (`USER#<u>` / `<kind>#<id>`): written, voted, signed up. */
export type OwnedKind = 'IDEA' | 'ARTICLE' | 'ARG' | 'BALLOT' | 'SIGNUP';

export const userKeys = {
  user: (siteId: number, userId: number): Key => ({ PK: sitePk(siteId), SK: `USER#${pad(userId)}` }),
  userPrefix: 'USER#',
  /**
   * A drawn user id's claim on the whole deployment (lib/store/db/ids.ts): the user key is per site,
   * but the id also names the user's GSI1 partition, so it must be unique across sites. Outside every
   * site's partition, like the id counters; one per user, written once with the user, never again.
   */
  userIdClaim: (userId: number): Key => ({ PK: `USERID#${pad(userId)}`, SK: 'USERID' }),
  /** GSI1: every site user linked to one auth-server user (`externalKey` = auth server + its user id). */
  userByExternal: (externalKey: string) => ({ GSI1PK: `EXTUSER#${externalKey}` }),
  /** Uniqueness guard: one site user per auth-server user per site (written with the user, conditionally). */
  userLink: (siteId: number, externalKey: string): Key => ({ PK: sitePk(siteId), SK: `EXTUSER#${externalKey}` }),
  /** `hash` = HMAC of (site, auth server, external id) (lib/store/users/role-floor.ts), never the external id itself. */
  roleFloor: (siteId: number, hash: string): Key => ({ PK: sitePk(siteId), SK: `ROLEFLOOR#${hash}` }),
  /** GSI1: what one site user wrote or voted (activity, anonymization). */
  ownedBy: (userId: number, kind: OwnedKind, id: number) => ({
    GSI1PK: `USER#${pad(userId)}`,
    GSI1SK: `${kind}#${pad(id)}`,
  }),
  ownedByPartition: (userId: number) => `USER#${pad(userId)}`,
  /** GSI1SK prefix of one kind in a user's `USER#<u>` partition (the `kind` of `ownedBy`). */
  ownedByKindPrefix: (kind: OwnedKind) => `${kind}#`,
  /**
   * GSI2: a site's users who are not anonymized, by activity: `A#<lastActivityAt>#<u>` until warned
   * about their inactivity, then `W#<warnedAt>#<u>`. Anonymization removes the keys.
   */
  usersByActivity: (siteId: number, userId: number, state: 'active' | 'warned', at: string) => ({
    GSI2PK: `USERS#${siteId}`,
    GSI2SK: `${state === 'active' ? 'A' : 'W'}#${at}#${pad(userId)}`,
  }),
  usersByActivityPartition: (siteId: number) => `USERS#${siteId}`,
  usersByActivityPrefix: (state: 'active' | 'warned') => (state === 'active' ? 'A#' : 'W#'),
} as const;
