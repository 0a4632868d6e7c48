/**
 * Tags of a site: `TAG#<t>` items, and a name guard `TAGNAME#<group>#<name>` per tag that
 * makes (group, name) unique per site: created, renamed and deleted with the tag in one transaction,
 * like the newsletter e-mail guard. A tag being deleted is a tombstone (`deletingAt`) until its ideas
 * have lost it (lib/tags/service.ts), so a retried DELETE finishes the job.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { batchGet } from '#lib/store/db/batch';
import { sitePk } from '#lib/store/db/keys';
import { tagKeys } from '#lib/store/tags/keys';
import { queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { conditionFailed } from '#lib/store/db/failures';
import { recordReader } from '#lib/store/db/codec';
import { storedTagLiveness, type StoredTag } from '#schemas/stored/tag';
import { update, withCondition } from '#lib/store/db/update';
import { tagCodec } from '#lib/store/tags/codec';
import { transact, transactFailedAt, type TransactItem } from '#lib/store/db/transact';
import { IdTaken } from '#lib/store/db/ids';

/** A tag as the domain writes it; a read may find it a tombstone (`deletingAt`). */
export type TagItem = Omit<StoredTag, 'deletingAt'>;

const DELETING = 'deletingAt';
const isLive = (raw: Record<string, unknown>) => raw[DELETING] === undefined;
const toItem = tagCodec.fromItem;

export async function getTag(siteId: number, tagId: number, options: { includeDeleting?: boolean } = {}) {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: tagKeys.tag(siteId, tagId), ConsistentRead: options.includeDeleting === true }));
  if (!out.Item || (!options.includeDeleting && !isLive(out.Item))) return undefined;
  return toItem(out.Item);
}

const readLiveness = recordReader('tag (id and tombstone)', storedTagLiveness);

/** The live tags among `ids` (one BatchGet per 100). */
export async function getLiveTagIds(siteId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const items = await batchGet<Record<string, unknown>>(ids.map((id) => tagKeys.tag(siteId, id)), {
    projection: { expression: '#id, #deleting', names: { '#id': 'id', '#deleting': DELETING } },
  });
  return new Set(items.map(readLiveness).filter(isLive).map((tag) => tag.id));
}

/** One page of a site's tags in id order (tombstones filtered out: a page may hold fewer). */
export async function listTags(siteId: number, page: PageRequest): Promise<Page<TagItem>> {
  const result = await queryPage<Record<string, unknown>>(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': tagKeys.tagPrefix },
      FilterExpression: 'attribute_not_exists(#deleting)',
      ExpressionAttributeNames: { '#deleting': DELETING },
    },
    page,
    { values: { PK: sitePk(siteId) }, skPrefix: tagKeys.tagPrefix },
    { siteId, list: 'tags', options: {} },
  );
  return { items: result.items.map(toItem), nextCursor: result.nextCursor };
}

const guardPut = (item: TagItem): TransactItem => ({
  Put: {
    TableName: TABLE,
    Item: { ...tagKeys.tagName(item.siteId, item.nameKey.group, item.nameKey.name), tagId: item.id },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});
const stored = (item: TagItem) => tagCodec.toItem(item);

/** 'duplicate': the guard failed; 'stale': the tag changed or went meanwhile. */
type TagWriteOutcome = 'ok' | 'duplicate' | 'stale';

async function writeTag(items: TransactItem[], guardIndex: number | undefined): Promise<TagWriteOutcome> {
  const failed = await transactFailedAt(items);
  if (failed.length === 0) return 'ok';
  if (guardIndex !== undefined && failed.includes(guardIndex)) return 'duplicate';
  if (failed.includes(0)) return 'stale';
  throw new Error(`Tag write: an unexpected condition failed (items ${failed.join(', ')})`);
}

/** Stores a new tag with its name guard: 'duplicate' when the name is taken; `IdTaken` when the id is. */
export async function putNewTag(item: TagItem): Promise<'ok' | 'duplicate'> {
  const outcome = await writeTag([{ Put: { TableName: TABLE, Item: stored(item), ConditionExpression: 'attribute_not_exists(PK)' } }, guardPut(item)], 1);
  if (outcome === 'stale') throw new IdTaken(item.id);
  return outcome;
}

/**
 * Replaces a tag that still has the `updatedAt` read (and is not being deleted); a new (group, name)
 * moves its guard in the same transaction.
 */
export function replaceTag(next: TagItem, previous: TagItem): Promise<TagWriteOutcome> {
  const put: TransactItem = {
    Put: {
      TableName: TABLE,
      Item: stored(next),
      ConditionExpression: '#updatedAt = :read AND attribute_not_exists(#deleting)',
      ExpressionAttributeNames: { '#updatedAt': 'updatedAt', '#deleting': DELETING },
      ExpressionAttributeValues: { ':read': previous.updatedAt },
    },
  };
  const moved = next.nameKey.group !== previous.nameKey.group || next.nameKey.name !== previous.nameKey.name;
  if (!moved) return writeTag([put], undefined);
  return writeTag(
    [
      put,
      guardPut(next),
      { Delete: { TableName: TABLE, Key: tagKeys.tagName(previous.siteId, previous.nameKey.group, previous.nameKey.name) } },
    ],
    1,
  );
}

/** Makes the tag a tombstone (idempotent); false when there is no such tag. */
export async function markTagDeleting(siteId: number, tagId: number): Promise<boolean> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: tagKeys.tag(siteId, tagId),
        ...withCondition(update({ setIfAbsent: { [DELETING]: new Date().toISOString() } }), { expression: 'attribute_exists(PK)' }),
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/** The last step of a tag delete: the tombstone and its name guard, together. */
export async function deleteTagAndGuard(tag: TagItem): Promise<void> {
  await transact([
    { Delete: { TableName: TABLE, Key: tagKeys.tag(tag.siteId, tag.id) } },
    { Delete: { TableName: TABLE, Key: tagKeys.tagName(tag.siteId, tag.nameKey.group, tag.nameKey.name) } },
  ]);
}
