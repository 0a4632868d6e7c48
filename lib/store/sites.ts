/**
 * Site records: `PK=SITE#<id>, SK=SITE`, listed through GSI1 (`SITES`). Deleting a site sweeps its
 * whole partition, which holds everything of the site (ideas, arguments, ballots, users, signups).
 */
import { getItem } from '#lib/store/read';
import { planOf } from '#lib/store/prefetch';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, GSI1, TABLE } from '#lib/store/client';
import { keys, sitePk, type Key } from '#lib/store/keys';
import { batchDelete, batchGet } from '#lib/store/batch';
import { queryPage, type Page, type PageRequest } from '#lib/store/query';
import { conditionFailed } from '#lib/store/failures';
import { updateOf, withCondition } from '#lib/store/update-expression';
import { defineCodec } from '#lib/store/codec';
import { storedSite, type StoredSite } from '#schemas/stored/site';

export type SiteItem = StoredSite;

/** A site is on GSI1 (`SITES`) from its first write on: the site list. */
export const siteCodec = defineCodec<SiteItem>({
  kind: 'site',
  schema: storedSite,
  keys: (site) => ({ ...keys.site(site.id), ...keys.siteListEntry(site.id) }),
});
const strip = siteCodec.fromItem;

const siteKeys = (siteId: number) => [keys.site(siteId)];

/** One site (`.plan`: every site-scoped request reads it first, lib/request/setup.ts). */
export const getSite = Object.assign(
  async (siteId: number): Promise<SiteItem | undefined> => {
    const [key] = siteKeys(siteId);
    const item = await getItem(key!);
    return item ? strip(item) : undefined;
  },
  { plan: planOf(siteKeys) },
);

/** Several sites by id (one BatchGet per 100); ids without a site are absent. */
export async function getSitesByIds(siteIds: readonly number[]): Promise<SiteItem[]> {
  if (siteIds.length === 0) return [];
  const items = await batchGet<Record<string, unknown>>(siteIds.map((id) => keys.site(id)));
  return items.map(strip);
}

export async function listSites(page: PageRequest): Promise<Page<SiteItem>> {
  const result = await queryPage<Record<string, unknown>>(
    {
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.siteListPartition },
    },
    page,
    { values: { GSI1PK: keys.siteListPartition } },
    { siteId: null, list: 'sites' },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

export async function putNewSite(site: SiteItem): Promise<void> {
  await doc.send(
    new PutCommand({
      TableName: TABLE,
      Item: siteCodec.toItem(site),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** Writes the changed fields; fails (ConditionalCheckFailed) when the site is gone meanwhile. */
export async function updateSite(
  siteId: number,
  changes: Partial<Pick<SiteItem, 'name' | 'title' | 'domain' | 'config'>> & { updatedAt: string },
): Promise<SiteItem | undefined> {
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.site(siteId),
        ...withCondition(updateOf(changes), { expression: 'attribute_exists(PK)' }),
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
 * Removes everything stored under the site. The site record goes last, so a failure halfway leaves
 * the site visible and the delete can simply be retried until nothing is left.
 */
export async function deleteSiteAndData(siteId: number): Promise<void> {
  const pk = sitePk(siteId);
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
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: keys.site(siteId) }));
}
