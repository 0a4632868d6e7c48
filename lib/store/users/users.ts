/**
 * Site users: the per-site cache of the auth server's users (`PK=SITE#<s>, SK=USER#<u>`).
 *
 * A user linked to an auth-server user carries `GSI1PK=EXTUSER#<auth-server-url>|<external id>`,
 * `GSI1SK=SITE#<s>`, so one GSI1 Query finds that person on every site (activity, anonymization,
 * deleting on the auth server only when no site has them any more). Next to it, in the site's
 * partition, a link item `SK=EXTUSER#<same key>` holds the site user's id: written in the same
 * transaction as the user with `attribute_not_exists`, it makes "one site user per auth-server user per
 * site" hold under concurrent first logins, and it is read strongly consistently at login (a GSI
 * read is only eventually consistent).
 */
import { getItem } from '#lib/store/db/read';
import { planOf } from '#lib/store/db/prefetch';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '#lib/store/db/batch';
import { doc, GSI2, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { userKeys } from '#lib/store/users/keys';
import { queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { roleFloorCodec, roleFloorKey, roleFloorPut } from '#lib/store/users/role-floor';
import { conditionFailed, failedConditions } from '#lib/store/db/failures';
import { update, updateOf, withCondition } from '#lib/store/db/update';
import { type StoredUser } from '#schemas/stored/user';
import { externalKeyOf, linkedKey, userCodec, userLinkCodec } from '#lib/store/users/codec';
import { transact, type TransactItem } from '#lib/store/db/transact';
import { IdTaken, withNewUserId } from '#lib/store/db/ids';

export type UserItem = StoredUser;
export { externalKeyOf } from '#lib/store/users/codec';

const strip = userCodec.fromItem;

const keysOfUser = (siteId: number, userId: number) => [userKeys.user(siteId, userId)];

/**
 * One site user (`.plan`: the caller of every request with a user token, lib/request/setup.ts).
 * @param options.consistent a strongly consistent read, for a conditional write planned from it.
 */
export const getUser = Object.assign(
  async (siteId: number, userId: number, options: { consistent?: boolean } = {}): Promise<UserItem | undefined> => {
    const [key] = keysOfUser(siteId, userId);
    const item = await getItem(key!, options);
    return item ? strip(item) : undefined;
  },
  { plan: planOf(keysOfUser) },
);

/** One page of a site's users in id order: one Query. */
export async function listUsers(siteId: number, page: PageRequest): Promise<Page<UserItem>> {
  const result = await queryPage<Record<string, unknown>>(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': userKeys.userPrefix },
    },
    page,
    { values: { PK: sitePk(siteId) }, skPrefix: userKeys.userPrefix },
    { siteId, list: 'users' },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

/**
 * What a login needs before it writes (lib/users/login.ts): this site's user linked to the auth-server
 * user, and the role floor a deleted or anonymized earlier site user of that person left
 * (lib/store/users/role-floor.ts). One strongly consistent BatchGet for both.
 */
export async function findLinkAndRoleFloor(
  siteId: number,
  authServer: string,
  externalUserId: string,
): Promise<{ userId?: number; roleFloor?: string }> {
  const linkKey = userKeys.userLink(siteId, externalKeyOf(authServer, externalUserId));
  const floorKey = roleFloorKey(siteId, authServer, externalUserId);
  const items = await batchGet<Record<string, unknown>>([linkKey, floorKey], { consistentRead: true });
  const link = items.find((i) => i.SK === linkKey.SK);
  const floor = items.find((i) => i.SK === floorKey.SK);
  return {
    ...(link ? { userId: userLinkCodec.fromItem(link).userId } : {}),
    // As stored; the login decides whether it is a role (lib/users/login.ts).
    ...(floor ? { roleFloor: roleFloorCodec.fromItem(floor).role } : {}),
  };
}

/**
 * A user id's claim (lib/store/db/ids.ts), put on the condition that no user took the id on any site.
 * Only its key: it outlives its user and its site (an id is never handed out twice) and says nothing
 * of either. A drawn id needs it to be unique; an imported id (below FIRST_DRAWN_USER_ID, unique by
 * its import's reservation) carries it too, as the record that the user was here: a rerun of the
 * import does not recreate a user deleted since (`deletedUsersAmong`).
 */
const userIdClaimPut = (userId: number) => ({
  TableName: TABLE,
  Item: userKeys.userIdClaim(userId),
  ConditionExpression: 'attribute_not_exists(PK)',
});

/**
 * A new drawn user id, claimed on its own (one conditional Put), for seeding that writes its users
 * outside putNewUser (tests/support/fixtures.ts, the bench), so seeders running in parallel processes
 * never share a user id either.
 */
export const claimNewUserId = (): Promise<number> => withNewUserId(claimUserId);

/** Claims `id` on its own (one conditional Put): the id, or `IdTaken` when a user anywhere has it. */
export async function claimUserId(id: number): Promise<number> {
  try {
    await doc.send(new PutCommand(userIdClaimPut(id)));
  } catch (err) {
    if (conditionFailed(err)) throw new IdTaken(id);
    throw err;
  }
  return id;
}

/**
 * Stores a new user, with its id's claim and, when linked, its link item, in one transaction. Returns
 * false when this site already has a user for that auth-server user (a concurrent first login won
 * the race); `IdTaken` when a user with its id exists, or existed, on any site.
 */
export async function putNewUser(item: UserItem): Promise<boolean> {
  const externalKey = linkedKey(item);
  const userPut = {
    TableName: TABLE,
    // Creation counts as activity, so the once-a-day refresh (touchUserActivity) has a value to compare.
    Item: userCodec.toItem({ ...item, lastActivityAt: item.lastActivityAt ?? item.createdAt }),
    ConditionExpression: 'attribute_not_exists(PK)',
  };
  const claimPut = userIdClaimPut(item.id);
  const linkPut = externalKey
    ? { TableName: TABLE, Item: userLinkCodec.toItem({ userId: item.id }, item.siteId, externalKey), ConditionExpression: 'attribute_not_exists(PK)' }
    : undefined;
  // The link last: its refusal (another first login won) says more than the id's.
  const puts = [userPut, claimPut, ...(linkPut ? [linkPut] : [])];
  try {
    await transact(puts.map((Put) => ({ Put })));
    return true;
  } catch (err) {
    const reasons = failedConditions(err);
    if (linkPut && reasons?.[puts.length - 1]?.Code === 'ConditionalCheckFailed') return false;
    if (reasons?.some((r) => r?.Code === 'ConditionalCheckFailed')) throw new IdTaken(item.id);
    throw err;
  }
}

/**
 * Of users that are not on their site (as an import is about to write them), the ids of those that
 * were here and were deleted: their id's claim outlives them (putNewUser), and a linked user's delete
 * leaves the person's role floor on the site (which also covers users stored before imported ids
 * carried a claim). Strongly consistent BatchGets, 100 keys each.
 */
export async function deletedUsersAmong(
  siteId: number,
  users: readonly Pick<UserItem, 'id' | 'authServer' | 'externalUserId'>[],
): Promise<Set<number>> {
  const claims = users.map((u) => ({ id: u.id, key: userKeys.userIdClaim(u.id) }));
  const floors = users.flatMap((u) => (u.authServer && u.externalUserId ? [{ id: u.id, key: roleFloorKey(siteId, u.authServer, u.externalUserId) }] : []));
  const wanted = [...claims, ...floors];
  if (wanted.length === 0) return new Set();
  const found = await batchGet<Record<string, unknown>>(wanted.map((w) => w.key), { consistentRead: true });
  const there = new Set(found.map((item) => `${String(item.PK)}|${String(item.SK)}`));
  return new Set(wanted.filter((w) => there.has(`${w.key.PK}|${w.key.SK}`)).map((w) => w.id));
}

type UserChanges = Partial<Omit<UserItem, 'id' | 'siteId' | 'createdAt' | 'externalUserId' | 'authServer'>> & { updatedAt: string };

/**
 * Writes the given fields of an existing user. `ifUpdatedAt` makes it an optimistic write (the item
 * must still be the version that was read). Returns the new item, or undefined when the user is gone,
 * anonymized (never written again: a login racing an anonymization must not restore personal data)
 * or was changed meanwhile.
 */
export async function updateUser(
  siteId: number,
  userId: number,
  changes: UserChanges,
  options: { ifUpdatedAt?: string } = {},
): Promise<UserItem | undefined> {
  // New activity moves the user to the front of the activity index and clears an inactivity warning.
  const activeAt = typeof changes.lastActivityAt === 'string' ? changes.lastActivityAt : undefined;
  const active = activeAt !== undefined;
  const set: Record<string, unknown> = active ? { ...changes, ...userKeys.usersByActivity(siteId, userId, 'active', activeAt) } : { ...changes };
  const condition = {
    expression: `attribute_exists(PK) AND attribute_not_exists(#anonymized)${options.ifUpdatedAt !== undefined ? ' AND #seen = :seen' : ''}`,
    names: { '#anonymized': 'anonymizedAt', ...(options.ifUpdatedAt !== undefined ? { '#seen': 'updatedAt' } : {}) },
    values: options.ifUpdatedAt !== undefined ? { ':seen': options.ifUpdatedAt } : {},
  };
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKeys.user(siteId, userId),
        ...withCondition(updateOf(set, active ? ['warnedAt'] : []), condition),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? strip(out.Attributes) : undefined;
  } catch (err) {
    if (conditionFailed(err)) return undefined;
    throw err;
  }
}

/**
 * Removes the user and its link item together. The link goes only while it still points at this user;
 * with it, the person's role floor on this site is written (lib/store/users/role-floor.ts).
 */
export async function deleteUser(item: Pick<UserItem, 'id' | 'siteId' | 'role' | 'authServer' | 'externalUserId'>): Promise<void> {
  const externalKey = linkedKey(item);
  const items: TransactItem[] = [
    { Delete: { TableName: TABLE, Key: userKeys.user(item.siteId, item.id) } },
  ];
  if (externalKey) items.push(linkDelete(item.siteId, item.id, externalKey), ...roleFloorPut(item));
  await transact(items);
}

function linkDelete(siteId: number, userId: number, externalKey: string) {
  return {
    Delete: {
      TableName: TABLE,
      Key: userKeys.userLink(siteId, externalKey),
      ConditionExpression: 'attribute_not_exists(PK) OR userId = :uid',
      ExpressionAttributeValues: { ':uid': userId },
    },
  };
}

// Lifecycle: activity and inactivity of users, through GSI2 `USERS#<s>` (userKeys.usersByActivity).

/**
 * Records activity at most once per stored value: a conditional write that only lands while the user
 * still has the `lastActivityAt` the caller read (and is not anonymized). False when it did not land.
 */
export async function touchUserActivity(siteId: number, userId: number, at: string, seen: string): Promise<boolean> {
  const index = userKeys.usersByActivity(siteId, userId, 'active', at);
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKeys.user(siteId, userId),
        ...withCondition(update({ set: { lastActivityAt: at, GSI2PK: index.GSI2PK, GSI2SK: index.GSI2SK }, remove: ['warnedAt'] }), {
          expression: 'attribute_exists(PK) AND attribute_not_exists(#anonymized) AND #at = :seen',
          names: { '#at': 'lastActivityAt', '#anonymized': 'anonymizedAt' },
          values: { ':seen': seen },
        }),
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/** A user on the activity index, with the time its index key holds (activity, or the warning). */
export interface IndexedUser {
  user: UserItem;
  at: string;
  /** The GSI2 sort key as read: a conditional write on it fails when the user moved meanwhile. */
  indexKey: string;
}

/**
 * The first `limit` users of a site in one state (`active`: not warned, oldest activity first;
 * `warned`: oldest warning first; undefined: both): one Query on GSI2.
 */
export async function usersByActivity(siteId: number, state: 'active' | 'warned' | undefined, limit: number, after?: string): Promise<IndexedUser[]> {
  const key = after !== undefined ? 'GSI2PK = :pk AND GSI2SK > :after' : state ? 'GSI2PK = :pk AND begins_with(GSI2SK, :prefix)' : 'GSI2PK = :pk';
  if (after !== undefined && state) throw new Error('usersByActivity: `after` reads the whole index, not one state');
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: GSI2,
      KeyConditionExpression: key,
      ExpressionAttributeValues: {
        ':pk': userKeys.usersByActivityPartition(siteId),
        ...(state ? { ':prefix': userKeys.usersByActivityPrefix(state) } : {}),
        ...(after !== undefined ? { ':after': after } : {}),
      },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((raw) => {
    const indexKey = String(raw.GSI2SK);
    // `A#<at>#<user>` / `W#<at>#<user>`: the instant between the first and the last `#`.
    return { user: strip(raw), at: indexKey.slice(indexKey.indexOf('#') + 1, indexKey.lastIndexOf('#')), indexKey };
  });
}

/** Does the site still have a user who is not anonymized? One Query, Limit 1. */
export async function hasUsersNotAnonymized(siteId: number): Promise<boolean> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': userKeys.usersByActivityPartition(siteId) },
      ProjectionExpression: 'PK',
      Limit: 1,
    }),
  );
  return (out.Items ?? []).length > 0;
}

/**
 * The write of an inactivity warning: the user moves to `W#<warnedAt>` (only while still at the index
 * key that was read, i.e. no activity since) together with `also` (the outbox record), one transaction.
 * False when the user moved meanwhile (active again, warned by a concurrent run, anonymized).
 */
export async function markUserWarned(
  siteId: number,
  userId: number,
  seenIndexKey: string,
  warnedAt: string,
  also: TransactItem[],
): Promise<boolean> {
  const index = userKeys.usersByActivity(siteId, userId, 'warned', warnedAt);
  try {
    await transact([
      {
        Update: {
          TableName: TABLE,
          Key: userKeys.user(siteId, userId),
          ...withCondition(update({ set: { warnedAt, GSI2SK: index.GSI2SK } }), {
            expression: 'GSI2SK = :seen AND attribute_not_exists(#anonymized)',
            names: { '#anonymized': 'anonymizedAt' },
            values: { ':seen': seenIndexKey },
          }),
        },
      },
      ...also,
    ]);
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
