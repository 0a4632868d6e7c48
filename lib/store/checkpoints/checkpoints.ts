/**
 * Vote checkpoints: `PK=SITE#<s>, SK=CHECKPOINT#<id>`, `{id, siteId, root, ballots, createdAt}`.
 * Written only by the `vote-checkpoints` job, never changed or deleted afterwards (deleting the site
 * sweeps them with its partition). Ids come from a counter, so SK order is publication order.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { checkpointKeys } from '#lib/store/checkpoints/keys';
import { markerUpdate, type JobMarker } from '#lib/store/jobs/jobs';
import { queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { conditionFailed } from '#lib/store/db/failures';
import { type StoredCheckpoint } from '#schemas/stored/checkpoint';
import { checkpointCodec } from '#lib/store/checkpoints/codec';
import { transact } from '#lib/store/db/transact';

export type CheckpointItem = StoredCheckpoint;

const strip = checkpointCodec.fromItem;

/**
 * Publishes a checkpoint and moves the job's marker on, in ONE transaction conditioned on the marker
 * as the run read it: of two overlapping runs only one publishes. False when the other one did.
 */
export async function publishCheckpoint(item: CheckpointItem, marker: JobMarker, nextDueAt: string | null): Promise<boolean> {
  try {
    await transact([
      { Put: { TableName: TABLE, Item: checkpointCodec.toItem(item), ConditionExpression: 'attribute_not_exists(PK)' } },
      markerUpdate(marker, { dueAt: nextDueAt }),
    ]);
    return true;
  } catch (err) {
    // Another run published first (or moved the marker). Conflicts were retried by lib/store/db/retry.ts.
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/** The newest checkpoint of a site (one Query of one item), strongly consistent. */
export async function latestCheckpoint(siteId: number): Promise<CheckpointItem | undefined> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': checkpointKeys.voteCheckpointPrefix },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0];
  return item ? strip(item) : undefined;
}

/** One page, oldest first: one Query. */
export async function listCheckpoints(siteId: number, page: PageRequest): Promise<Page<CheckpointItem>> {
  const pk = sitePk(siteId);
  const prefix = checkpointKeys.voteCheckpointPrefix;
  const result = await queryPage<Record<string, unknown>>(
    { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix } },
    page,
    { values: { PK: pk }, skPrefix: prefix },
    { siteId, list: 'vote-checkpoints' },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}
