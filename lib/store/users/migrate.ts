/**
 * Migration access to site users (scripts/migrate.ts): users stored before the lifecycle change lack
 * their GSI2 keys (`userKeys.usersByActivity`). One Query per page of a site's users, one conditional
 * Update per user given its keys.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { userKeys } from '#lib/store/users/keys';
import { conditionFailed } from '#lib/store/db/failures';
import { recordReader } from '#lib/store/db/codec';
import { storedUserBeforeLifecycle } from '#schemas/stored/user';
import { update, withCondition } from '#lib/store/db/update';

/** Read only: the migration writes with Updates (below), never a whole user (that is lib/store/users/users.ts). */
const readLegacyUser = recordReader('user (as stored before the lifecycle change)', storedUserBeforeLifecycle);

interface UserWithoutActivityIndex {
  siteId: number;
  id: number;
  createdAt: string;
  updatedAt: string | undefined;
  lastActivityAt: string | undefined;
}

interface UsersPage {
  /** Users on this page that are not anonymized and have no GSI2 keys. */
  items: UserWithoutActivityIndex[];
  /** Where the next page starts; undefined after the last page. */
  next: Record<string, unknown> | undefined;
}

/** One page of a site's users (one Query), keeping those not anonymized and without GSI2 keys. */
export async function usersWithoutActivityIndexPage(siteId: number, start: Record<string, unknown> | undefined, pageSize = 100): Promise<UsersPage> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': userKeys.userPrefix },
      ExclusiveStartKey: start,
      Limit: pageSize,
    }),
  );
  const items = (out.Items ?? [])
    .filter((raw) => raw.GSI2PK === undefined)
    .map(readLegacyUser)
    .filter((user) => !user.anonymizedAt)
    .map((user) => ({
      siteId,
      id: user.id,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
      lastActivityAt: user.lastActivityAt ?? undefined,
    }));
  return { items, next: out.LastEvaluatedKey };
}

/**
 * Gives a user its activity keys, only while it is as read (same updatedAt, still without GSI2 keys,
 * not anonymized): false when it changed in between (its own writer then set the keys).
 */
export async function indexUserActivity(user: UserWithoutActivityIndex, lastActivityAt: string): Promise<boolean> {
  const index = userKeys.usersByActivity(user.siteId, user.id, 'active', lastActivityAt);
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: userKeys.user(user.siteId, user.id),
        ...withCondition(update({ set: { GSI2PK: index.GSI2PK, GSI2SK: index.GSI2SK, lastActivityAt } }), {
          expression:
            'attribute_exists(PK) AND attribute_not_exists(GSI2PK) AND attribute_not_exists(anonymizedAt)' +
            (user.updatedAt === undefined ? ' AND attribute_not_exists(updatedAt)' : ' AND updatedAt = :u'),
          ...(user.updatedAt === undefined ? {} : { values: { ':u': user.updatedAt } }),
        }),
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
