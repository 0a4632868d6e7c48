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
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { doc, GSI1, TABLE } from '#lib/store/client';
import { keys, sitePk } from '#lib/store/keys';
import { queryAll, queryPage, type Page, type PageRequest } from '#lib/store/query';
import type { Role } from '#lib/auth/roles';

export interface UserItem {
  id: number;
  siteId: number;
  role: Role;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  nickName?: string | null;
  /** The user's extraData as stored on the auth server: every site's entries (read per site). */
  extraData?: Record<string, unknown>;
  /** The auth server's id of this user (as a string); null/absent: a local-only user. */
  externalUserId?: string | null;
  /** The normalised `auth-server-url` the user is linked to. */
  authServer?: string | null;
  listableByRole?: string | null;
  detailsViewableByRole?: string | null;
  gender?: string | null;
  signedUpForNewsletter?: boolean | null;
  /** Set by anonymization; the caller resolution treats such a user as gone. */
  anonymizedAt?: string | null;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

/** `<auth-server-url>|<external id>`: the auth-server user behind a site user, the same on every site. */
export const externalKeyOf = (authServer: string, externalUserId: string) => `${authServer}|${externalUserId}`;

const linkedKey = (item: Pick<UserItem, 'authServer' | 'externalUserId'>) =>
  item.authServer && item.externalUserId ? externalKeyOf(item.authServer, item.externalUserId) : undefined;

const strip = ({ PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, ...rest }: Record<string, unknown>) => rest as UserItem;

const conditionFailed = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

export async function getUser(siteId: number, userId: number): Promise<UserItem | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: keys.user(siteId, userId) }));
  return out.Item ? strip(out.Item) : undefined;
}

/** One page of a site's users in id order: one Query. */
export async function listUsers(siteId: number, page: PageRequest): Promise<Page<UserItem>> {
  const result = await queryPage<Record<string, unknown>>(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': keys.userPrefix },
    },
    page,
    { values: { PK: sitePk(siteId) }, skPrefix: keys.userPrefix },
    { siteId, list: 'users' },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

/** The id of this site's user linked to an auth-server user (strongly consistent), if any. */
export async function findLinkedUserId(siteId: number, externalKey: string): Promise<number | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: keys.userLink(siteId, externalKey), ConsistentRead: true }));
  const userId = out.Item?.userId;
  return typeof userId === 'number' ? userId : undefined;
}

/**
 * Stores a new user (and, when linked, its link item in the same transaction). Returns false when
 * this site already has a user for that auth-server user (a concurrent first login won the race).
 */
export async function putNewUser(item: UserItem): Promise<boolean> {
  const externalKey = linkedKey(item);
  const userPut = {
    TableName: TABLE,
    Item: {
      ...keys.user(item.siteId, item.id),
      ...(externalKey ? { ...keys.userByExternal(externalKey), GSI1SK: sitePk(item.siteId) } : {}),
      ...item,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
  if (!externalKey) {
    await doc.send(new PutCommand(userPut));
    return true;
  }
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: userPut },
          {
            Put: {
              TableName: TABLE,
              Item: { ...keys.userLink(item.siteId, externalKey), userId: item.id },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if ((err as Error).name === 'TransactionCanceledException' && reasons?.[1]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

export type UserChanges = Partial<Omit<UserItem, 'id' | 'siteId' | 'createdAt' | 'externalUserId' | 'authServer'>> & { updatedAt: string };

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
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(changes).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  let condition = 'attribute_exists(PK) AND attribute_not_exists(#anonymized)';
  names['#anonymized'] = 'anonymizedAt';
  if (options.ifUpdatedAt !== undefined) {
    condition += ' AND #seen = :seen';
    names['#seen'] = 'updatedAt';
    values[':seen'] = options.ifUpdatedAt;
  }
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.user(siteId, userId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? strip(out.Attributes) : undefined;
  } catch (err) {
    if (conditionFailed(err)) return undefined;
    throw err;
  }
}

/** Removes the user and its link item together. The link goes only while it still points at this user. */
export async function deleteUser(item: Pick<UserItem, 'id' | 'siteId' | 'authServer' | 'externalUserId'>): Promise<void> {
  const externalKey = linkedKey(item);
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    { Delete: { TableName: TABLE, Key: keys.user(item.siteId, item.id) } },
  ];
  if (externalKey) items.push(linkDelete(item.siteId, item.id, externalKey));
  await doc.send(new TransactWriteCommand({ TransactItems: items }));
}

function linkDelete(siteId: number, userId: number, externalKey: string) {
  return {
    Delete: {
      TableName: TABLE,
      Key: keys.userLink(siteId, externalKey),
      ConditionExpression: 'attribute_not_exists(PK) OR userId = :uid',
      ExpressionAttributeValues: { ':uid': userId },
    },
  };
}

/**
 * Unlinks a site user from its auth-server user (anonymization): the link item, the GSI1 entry and the
 * external id go in one transaction, so the person's next login makes a fresh site user.
 */
export async function unlinkUser(item: Pick<UserItem, 'id' | 'siteId' | 'authServer' | 'externalUserId'>, updatedAt: string): Promise<void> {
  const externalKey = linkedKey(item);
  if (!externalKey) return;
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: keys.user(item.siteId, item.id),
            UpdateExpression: 'REMOVE GSI1PK, GSI1SK, externalUserId, authServer SET updatedAt = :now',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':now': updatedAt },
          },
        },
        linkDelete(item.siteId, item.id, externalKey),
      ],
    }),
  );
}

/** Every site user linked to one auth-server user, on all sites: one GSI1 Query (paged only past 1 MB). */
export async function siteUsersOfExternal(externalKey: string): Promise<{ siteId: number; id: number }[]> {
  const items = await queryAll<{ siteId: number; id: number }>({
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.userByExternal(externalKey).GSI1PK },
    ProjectionExpression: '#s, #i',
    ExpressionAttributeNames: { '#s': 'siteId', '#i': 'id' },
  });
  return items.map(({ siteId, id }) => ({ siteId, id }));
}
