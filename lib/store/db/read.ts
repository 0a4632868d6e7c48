/**
 * Reads by key, through the request's prefetch (lib/store/db/prefetch.ts): an item the request already
 * read with its first BatchGet costs no request; anything else is one GetItem / BatchGet as before.
 * Every by-key access pattern of lib/store reads through here.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { batchGet } from '#lib/store/db/batch';
import type { Key } from '#lib/store/db/keys';
import { takePrefetched } from '#lib/store/db/prefetch';

interface ReadOptions {
  /** Strongly consistent: for a conditional write planned from the item. */
  consistent?: boolean | undefined;
}

interface GetItemOptions extends ReadOptions {
  /** Only these attributes when the item is read here (a prefetched item comes whole). */
  projection?: { expression: string; names?: Record<string, string> } | undefined;
}

/** One item by key, or undefined. */
export async function getItem(key: Key, options: GetItemOptions = {}): Promise<Record<string, unknown> | undefined> {
  const taken = takePrefetched(key, options);
  if (taken) return taken.item;
  const projection = options.projection
    ? { ProjectionExpression: options.projection.expression, ...(options.projection.names ? { ExpressionAttributeNames: options.projection.names } : {}) }
    : {};
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: key, ...(options.consistent ? { ConsistentRead: true } : {}), ...projection }));
  return out.Item;
}

/** Items by key (missing ones are absent): prefetched ones from the request, the rest with one BatchGet per 100. */
export async function getItems(keyList: readonly Key[], options: ReadOptions = {}): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const rest: Key[] = [];
  for (const key of keyList) {
    const taken = takePrefetched(key, options);
    if (!taken) rest.push(key);
    else if (taken.item) found.push(taken.item);
  }
  if (rest.length > 0) found.push(...(await batchGet<Record<string, unknown>>(rest, options.consistent ? { consistentRead: true } : {})));
  return found;
}
