/**
 * Batch reads and writes with the retry of unprocessed items that DynamoDB asks callers to do.
 * Chunk sizes are DynamoDB's own limits (100 keys per BatchGet, 25 requests per BatchWrite).
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import type { Key } from '#lib/store/db/keys';
import { jitteredDelayMs, RETRY_POLICY, stillBusy } from '#lib/store/db/retry';
import { MAX_BATCH_GET_KEYS } from '#lib/store/db/limits';

/**
 * Unprocessed keys and items are DynamoDB throttling part of a batch: they are sent again under the
 * store's one retry policy (lib/store/db/retry.ts), then the caller gets 503 with `Retry-After`.
 */
const MAX_ROUNDS = RETRY_POLICY.maxAttempts;
const backoff = (round: number) => new Promise((r) => setTimeout(r, jitteredDelayMs(round)));


const chunk = <T>(list: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

interface BatchGetOptions {
  /** Strongly consistent reads (twice the read units): for reads a conditional write depends on. */
  consistentRead?: boolean;
  /** Only these attributes (a ProjectionExpression and its `#name` placeholders). */
  projection?: { expression: string; names: Record<string, string> };
}

/** Reads items by key; missing items are simply absent from the result. One request per 100 keys. */
export async function batchGet<T = Record<string, unknown>>(keyList: Key[], options: BatchGetOptions = {}): Promise<T[]> {
  const read = {
    ...(options.consistentRead ? { ConsistentRead: true } : {}),
    ...(options.projection
      ? { ProjectionExpression: options.projection.expression, ExpressionAttributeNames: options.projection.names }
      : {}),
  };
  const unique = [...new Map(keyList.map((k) => [`${k.PK}|${k.SK}`, k])).values()];
  const results: T[] = [];
  await Promise.all(
    chunk(unique, MAX_BATCH_GET_KEYS).map(async (part) => {
      let pending: Record<string, unknown>[] | undefined = part.map((k) => ({ PK: k.PK, SK: k.SK }));
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round >= MAX_ROUNDS) throw stillBusy();
        if (round > 0) await backoff(round);
        const out = await doc.send(new BatchGetCommand({ RequestItems: { [TABLE]: { Keys: pending, ...read } } }));
        results.push(...((out.Responses?.[TABLE] ?? []) as T[]));
        pending = out.UnprocessedKeys?.[TABLE]?.Keys as Record<string, unknown>[] | undefined;
      }
    }),
  );
  return results;
}

/** Deletes items by key, 25 per request. Deleting a missing item is not an error, so retries are safe. */
export async function batchDelete(keyList: Key[]): Promise<void> {
  for (const part of chunk(keyList, 25)) {
    type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];
    let pending: WriteRequests | undefined = part.map((k) => ({ DeleteRequest: { Key: { PK: k.PK, SK: k.SK } } }));
    for (let round = 0; pending && pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw stillBusy();
      if (round > 0) await backoff(round);
      const out: BatchWriteCommandOutput = await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
      pending = out.UnprocessedItems?.[TABLE];
    }
  }
}

/** Puts whole items, 25 per request (an overwrite of the same item is harmless, so retries are safe). */
export async function batchPut(items: Record<string, unknown>[]): Promise<void> {
  for (const part of chunk(items, 25)) {
    type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];
    let pending: WriteRequests | undefined = part.map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending && pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw stillBusy();
      if (round > 0) await backoff(round);
      const out: BatchWriteCommandOutput = await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
      pending = out.UnprocessedItems?.[TABLE];
    }
  }
}
