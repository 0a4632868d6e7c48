/**
 * Ideas and articles ("content items") share one item shape and the same access patterns, under two
 * key prefixes: `SK = IDEA#<id>` / `ARTICLE#<id>` in the site's partition, and on GSI1 the owner's
 * `USER#<u>` partition (activity, anonymization). lib/store/ideas/ideas.ts and lib/store/articles/articles.ts bind
 * these to their kind and add what only one kind has (tallies, arguments).
 */
import { getItem } from '#lib/store/db/read';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { batchGet } from '#lib/store/db/batch';
import { sitePk, type Key } from '#lib/store/db/keys';
import { contentKeys } from '#lib/store/content/keys';
import { ideaKeys, isIdeaTallySk } from '#lib/store/ideas/keys';
import { userKeys } from '#lib/store/users/keys';
import { queryPage, type PageRequest } from '#lib/store/db/query';
import { fitsInItem } from '#lib/store/db/storable';
import { asIdeaTally, type Tally } from '#lib/store/ideas/tallies';
import type { UserItem } from '#lib/store/users/users';
import type { ContentStatus } from '#schemas/content-item';
import { conditionFailed, failedConditions } from '#lib/store/db/failures';
import { contentItemCodec } from '#lib/store/content/codec';
import { userCodec } from '#lib/store/users/codec';
import { update, withCondition } from '#lib/store/db/update';
import { transact, type TransactItem } from '#lib/store/db/transact';
import { IdTaken } from '#lib/store/db/ids';

export type ContentKind = 'IDEA' | 'ARTICLE';

export interface ContentItem {
  id: number;
  siteId: number;
  userId: number | null;
  title: string;
  summary: string;
  description: string;
  status: ContentStatus;
  budget: number | null;
  extraData: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Optimistic concurrency: every write increments it and is conditioned on the value it read. */
  version: number;
  /** Ideas only: tag ids and a WGS84 location; absent on older items (read as [] and null). */
  tags?: number[];
  location?: { lat: number; lng: number } | null;
  /** Ideas brought from OpenStad keep their publication date; others are published when created. */
  publishDate?: string;
}

/** A page of items with a way to resume right after any of them (for pages cut short by size). */
export interface ContentPage {
  items: ContentItem[];
  nextCursor: string | null;
  cursorAfter: (item: ContentItem) => string;
}

/**
 * Set on an idea while it is being deleted (see lib/store/ideas/ideas.ts `deleteIdeaAndRelated`): the item
 * stays as a tombstone until its arguments and votes are gone, so a retry after a failure halfway can
 * find it and finish. Reads treat it as absent.
 */
export const DELETING = 'deletingAt';
const isLive = (raw: Record<string, unknown>) => raw[DELETING] === undefined;

export const contentKey = (kind: ContentKind, siteId: number, id: number): Key =>
  kind === 'IDEA' ? contentKeys.idea(siteId, id) : contentKeys.article(siteId, id);
const prefixOf = (kind: ContentKind) => (kind === 'IDEA' ? contentKeys.ideaPrefix : contentKeys.articlePrefix);

const toItem = contentItemCodec.fromItem;

const storedItem = (kind: ContentKind, item: ContentItem) => ({
  ...contentKey(kind, item.siteId, item.id),
  ...(item.userId != null ? userKeys.ownedBy(item.userId, kind, item.id) : {}),
  ...item,
});

/** @param options.includeDeleting also return a tombstone (only the delete path wants it). */
export async function getContentItem(
  kind: ContentKind,
  siteId: number,
  id: number,
  options: { includeDeleting?: boolean } = {},
): Promise<ContentItem | undefined> {
  const item = await getItem(contentKey(kind, siteId, id));
  if (!item || (!options.includeDeleting && !isLive(item))) return undefined;
  return toItem(item);
}

/** Items by id (one BatchGet per 100 ids); ids without an item are absent from the map. */
export async function getContentItems(kind: ContentKind, siteId: number, ids: readonly number[]): Promise<Map<number, ContentItem>> {
  if (ids.length === 0) return new Map();
  const items = await batchGet<Record<string, unknown>>(ids.map((id) => contentKey(kind, siteId, id)));
  return new Map(items.filter(isLive).map((raw) => toItem(raw)).map((item) => [item.id, item]));
}

/**
 * One page in creation order (ids grow with time, so SK order is creation order): exactly one Query.
 * Ideas come with their tallies: each idea's tally item sorts right after it (`IDEA#<id>#TALLY`), so
 * the Query reads both (two items per idea) and `tallies` holds the page's counts.
 * `statuses` filters on the server; a filtered page may hold fewer items than asked for.
 */
export async function listContentByCreation(
  kind: ContentKind,
  siteId: number,
  options: { newestFirst: boolean; statuses?: readonly ContentStatus[] | undefined },
  page: PageRequest,
): Promise<ContentPage & { tallies: Map<number, Tally>; argCounts: Map<number, number> }> {
  const prefix = prefixOf(kind);
  // A range rather than begins_with: the same items, and DynamoDB Local (SQLite) walks a BETWEEN range
  // from the end it starts at, where it scans a begins_with range from the front (a newest-first page
  // slowed with the partition's size: docs/benchmarks.md). `~` sorts after every digit and `#`.
  const values: Record<string, unknown> = { ':pk': sitePk(siteId), ':from': prefix, ':to': `${prefix}~` };
  const names: Record<string, string> = { '#deleting': DELETING };
  const conditions = ['attribute_not_exists(#deleting)'];
  if (options.statuses) {
    const placeholders = options.statuses.map((status, i) => {
      values[`:s${i}`] = status;
      return `:s${i}`;
    });
    names['#status'] = 'status';
    conditions.push(`#status IN (${placeholders.join(', ')})`);
  }
  const withTallies = kind === 'IDEA';
  if (withTallies) {
    names['#tallyOf'] = 'tallyOf';
    names['#gone'] = 'gone';
  }
  const keep = conditions.join(' AND ');
  const filter = {
    FilterExpression: withTallies ? `(attribute_exists(#tallyOf) AND attribute_not_exists(#gone)) OR (${keep})` : keep,
    ExpressionAttributeNames: names,
  };
  const result = await queryPage<Record<string, unknown>>(
    {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: values,
      ScanIndexForward: !options.newestFirst,
      ...filter,
    },
    page,
    { values: { PK: sitePk(siteId) }, skPrefix: prefix },
    { siteId, list: kind === 'IDEA' ? 'ideas' : 'articles', options: { newestFirst: options.newestFirst, statuses: options.statuses } },
    withTallies ? 2 : 1,
  );
  const tallies = new Map<number, Tally>();
  const argCounts = new Map<number, number>();
  const items: ContentItem[] = [];
  for (const raw of result.items) {
    // Known by its key: what a count left of an idea already deleted (a journal's late ADD, no
    // `tallyOf`) is no idea either, and is skipped.
    if (withTallies && isIdeaTallySk(String(raw['SK']))) {
      const tally = asIdeaTally(raw);
      if (tally) {
        tallies.set(tally.ideaId, tally.tally);
        argCounts.set(tally.ideaId, tally.args);
      }
    } else items.push(toItem(raw));
  }
  // The last stored item of an idea in scan order: its tally going up, the idea itself going down.
  const lastKeyOf = (item: ContentItem) => (withTallies && !options.newestFirst ? ideaKeys.ideaTally(siteId, item.id) : contentKey(kind, siteId, item.id));
  // Ideas stored before tallies had their own items have none: a page can then read more ideas than asked.
  const cut = items.length > page.pageSize;
  const shown = cut ? items.slice(0, page.pageSize) : items;
  return {
    items: shown,
    tallies,
    argCounts,
    nextCursor: cut ? result.cursorOf({ ...lastKeyOf(shown[shown.length - 1]!) }) : result.nextCursor,
    // The Query resumes after a key: the last one the item has.
    cursorAfter: (item) => result.cursorOf({ ...lastKeyOf(item) }),
  };
}

/** Users by id for `includeUser` (one BatchGet per 100 ids). */
export async function getUsers(siteId: number, userIds: readonly number[]): Promise<Map<number, UserItem>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const users = (await batchGet<Record<string, unknown>>(unique.map((id) => userKeys.user(siteId, id)))).map(userCodec.fromItem);
  return new Map(users.map((user) => [user.id, user]));
}

export type ContentWriteOutcome = 'ok' | 'stale' | 'no-user' | 'too-large';

/**
 * Writes the items of one logical change together: a single conditional Put or Delete when it is
 * alone (half the cost of a transaction), else one TransactWrite. A failed condition on the first item means
 * "stale", on the user check "no user". An item DynamoDB could not hold (an update merged extraData
 * past 400 KB) is "too large", and nothing is sent.
 */
async function write(first: TransactItem, rest: TransactItem[], userCheck: TransactItem | undefined): Promise<ContentWriteOutcome> {
  if (first.Put && !fitsInItem(first.Put.Item as Record<string, unknown>)) return 'too-large';
  const items = userCheck ? [first, ...rest, userCheck] : [first, ...rest];
  if (items.length === 1 && (first.Put || first.Delete)) {
    try {
      if (first.Put) await doc.send(new PutCommand(first.Put));
      else await doc.send(new DeleteCommand(first.Delete!));
      return 'ok';
    } catch (err) {
      if (conditionFailed(err)) return 'stale';
      throw err;
    }
  }
  try {
    await transact(items);
    return 'ok';
  } catch (err) {
    const reasons = failedConditions(err);
    if (!reasons) throw err;
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'stale';
    if (userCheck && reasons[items.length - 1]?.Code === 'ConditionalCheckFailed') return 'no-user';
    throw err;
  }
}

/** The id of a body (`userId` set by a moderator) must point at a user of the site, checked atomically. */
const userExists = (siteId: number, userId: number): TransactItem => ({
  ConditionCheck: { TableName: TABLE, Key: userKeys.user(siteId, userId), ConditionExpression: 'attribute_exists(PK)' },
});

/**
 * Stores a new item. `with` goes in the same transaction (an idea's tally registration);
 * `checkUser` makes the write fail with 'no-user' when that user is not on the site; `IdTaken` when
 * an item with its id exists.
 */
export async function putNewContentItem(
  kind: ContentKind,
  item: ContentItem,
  options: { with?: TransactItem[]; checkUser?: number | undefined } = {},
): Promise<Exclude<ContentWriteOutcome, 'stale'>> {
  const outcome = await write(
    { Put: { TableName: TABLE, Item: storedItem(kind, item), ConditionExpression: 'attribute_not_exists(PK)' } },
    options.with ?? [],
    options.checkUser !== undefined ? userExists(item.siteId, options.checkUser) : undefined,
  );
  if (outcome === 'stale') throw new IdTaken(item.id);
  return outcome;
}

/**
 * Replaces an item that still has `expectedVersion` ('stale' when it changed or is gone meanwhile);
 * `with` goes in the same transaction (an idea's index items).
 * A whole Put rather than an Update, because a new owner also moves the item's GSI1 keys.
 */
export function replaceContentItem(
  kind: ContentKind,
  item: ContentItem,
  expectedVersion: number,
  options: { checkUser?: number | undefined; with?: TransactItem[] } = {},
): Promise<ContentWriteOutcome> {
  return write(
    {
      Put: {
        TableName: TABLE,
        Item: storedItem(kind, item),
        ConditionExpression: '#version = :expected',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':expected': expectedVersion },
      },
    },
    options.with ?? [],
    options.checkUser !== undefined ? userExists(item.siteId, options.checkUser) : undefined,
  );
}

/**
 * Turns an item into a tombstone (and writes `with` in the same transaction); false when it did not
 * exist. Bumps `version`, so an update that read the item before cannot write it back.
 */
export async function markContentDeleting(
  kind: ContentKind,
  siteId: number,
  id: number,
  options: { with?: TransactItem[] } = {},
): Promise<boolean> {
  const outcome = await write(
    {
      Update: {
        TableName: TABLE,
        Key: contentKey(kind, siteId, id),
        ...withCondition(update({ setIfAbsent: { [DELETING]: new Date().toISOString() }, increment: { version: 1 } }), { expression: 'attribute_exists(PK)' }),
      },
    },
    options.with ?? [],
    undefined,
  );
  return outcome === 'ok';
}

/**
 * Deletes an item (and `with`, in the same transaction); false when it did not exist.
 */
export async function deleteContentItem(
  kind: ContentKind,
  siteId: number,
  id: number,
  options: { with?: TransactItem[] } = {},
): Promise<boolean> {
  const outcome = await write(
    { Delete: { TableName: TABLE, Key: contentKey(kind, siteId, id), ConditionExpression: 'attribute_exists(PK)' } },
    options.with ?? [],
    undefined,
  );
  return outcome === 'ok';
}
