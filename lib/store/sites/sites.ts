/**
 * Site records: `PK=SITE#<id>, SK=SITE`, listed through GSI1 (`SITES`). Deleting a site sweeps its
 * whole partition, which holds everything of the site (ideas, arguments, ballots, users, signups).
 */
import { getItem } from '#lib/store/db/read';
import { planOf } from '#lib/store/db/prefetch';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, GSI1, TABLE } from '#lib/store/db/client';
import { sitePk, type Key } from '#lib/store/db/keys';
import { siteKeys } from '#lib/store/sites/keys';
import { batchDelete, batchGet } from '#lib/store/db/batch';
import { queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { conditionFailed } from '#lib/store/db/failures';
import { updateOf, withCondition } from '#lib/store/db/update';
import { type StoredSite } from '#schemas/stored/site';
import { siteCodec } from '#lib/store/sites/codec';
import { IdTaken } from '#lib/store/db/ids';

export type SiteItem = StoredSite;

const strip = siteCodec.fromItem;

const keysOfSite = (siteId: number) => [siteKeys.site(siteId)];

/** One site (`.plan`: every site-scoped request reads it first, lib/request/setup.ts). */
export const getSite = Object.assign(
  async (siteId: number, options: { consistent?: boolean } = {}): Promise<SiteItem | undefined> => {
    const [key] = keysOfSite(siteId);
    const item = await getItem(key!, options);
    return item ? strip(item) : undefined;
  },
  { plan: planOf(keysOfSite) },
);

/** Several sites by id (one BatchGet per 100); ids without a site are absent. */
export async function getSitesByIds(siteIds: readonly number[]): Promise<SiteItem[]> {
  if (siteIds.length === 0) return [];
  const items = await batchGet<Record<string, unknown>>(siteIds.map((id) => siteKeys.site(id)));
  return items.map(strip);
}

export async function listSites(page: PageRequest): Promise<Page<SiteItem>> {
  const result = await queryPage<Record<string, unknown>>(
    {
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': siteKeys.siteListPartition },
    },
    page,
    { values: { GSI1PK: siteKeys.siteListPartition } },
    { siteId: null, list: 'sites' },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

/** Stores a new site; `IdTaken` when a site with its id exists. */
export async function putNewSite(site: SiteItem): Promise<void> {
  try {
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: siteCodec.toItem(site),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (err) {
    if (conditionFailed(err)) throw new IdTaken(site.id);
    throw err;
  }
}

/**
 * Writes the changed fields; undefined when the site is gone meanwhile. With `ifUpdatedAt` (a change
 * computed from the stored site: a merge patch, a kept secret) the write also needs the site to be
 * unchanged since that read, else `'changed'` and nothing is written (the caller reads again).
 */
export async function updateSite(
  siteId: number,
  changes: Partial<Pick<SiteItem, 'name' | 'title' | 'domain' | 'config'>> & { updatedAt: string },
  ifUpdatedAt?: string,
): Promise<SiteItem | 'changed' | undefined> {
  const condition =
    ifUpdatedAt === undefined
      ? { expression: 'attribute_exists(PK)' }
      : { expression: 'attribute_exists(PK) AND #seen = :seen', names: { '#seen': 'updatedAt' }, values: { ':seen': ifUpdatedAt } };
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: siteKeys.site(siteId),
        ...withCondition(updateOf(changes), condition),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? strip(out.Attributes) : undefined;
  } catch (err) {
    if (conditionFailed(err)) return ifUpdatedAt === undefined ? undefined : 'changed';
    throw err;
  }
}

/**
 * Removes everything stored under the site. The site record goes last, so a failure halfway leaves
 * the site visible and the delete can simply be retried until nothing is left. Leaves only the site's
 * tombstone (siteKeys.siteDeleted: its id and when), so an import does not bring the site back.
 */
export async function deleteSiteAndData(siteId: number, now = new Date()): Promise<void> {
  const pk = sitePk(siteId);
  // The tombstone first: a delete that stops halfway is already a deleted site to the import.
  await doc.send(new PutCommand({ TableName: TABLE, Item: { ...siteKeys.siteDeleted(siteId), deletedAt: now.toISOString() } }));
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'PK, SK',
        ExclusiveStartKey: start,
      }),
    );
    const itemKeys = ((out.Items ?? []) as Key[]).filter((k) => k.SK !== 'SITE');
    await batchDelete(itemKeys);
    start = out.LastEvaluatedKey;
  } while (start);
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: siteKeys.site(siteId) }));
}
