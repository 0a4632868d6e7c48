/**
 * A site's results snapshot and the state of its computation (docs/results.md "Results snapshots"):
 *
 *   `RESULTS#HEAD`                         ETag, computedAt, coveredUntil, ballots, generation, chunk
 *                                          count, and the gzipped body when it fits (one item)
 *   `RESULTS#CHUNK#<generation>#<i>`       the gzipped body, CHUNK_BYTES a piece, when it does not
 *   `RESULTS#STATE`                        the computation's lease, its progress, `staleSince`
 *
 * A reader takes the head (in the request's first read) and, for a chunked body, its chunks with one
 * BatchGet: at most two requests for any size. A writer puts the new generation's chunks first, then the
 * head conditioned on the generation it replaces, then gives the old chunks a TTL an hour out, so a
 * reader holding the old head still finds them. Every key is written here.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut } from '#lib/store/db/batch';
import { doc, TABLE } from '#lib/store/db/client';
import { defineCodec } from '#lib/store/db/codec';
import { conditionFailed } from '#lib/store/db/failures';
import { sitePk, type Key } from '#lib/store/db/keys';
import { planOf } from '#lib/store/db/prefetch';
import { getItem, getItems } from '#lib/store/db/read';
import { update, withCondition } from '#lib/store/db/update';
import { storedResultsChunk, storedResultsHead, storedResultsState, type StoredResultsHead, type StoredResultsState } from '#schemas/stored/results-snapshot';

export type ResultsHead = StoredResultsHead;
type ResultsState = StoredResultsState;

/** How long chunks of a replaced snapshot stay readable. */
const OLD_CHUNKS_SECONDS = 3600;

const resultsKeys = {
  head: (siteId: number): Key => ({ PK: sitePk(siteId), SK: 'RESULTS#HEAD' }),
  chunk: (siteId: number, generation: string, index: number): Key => ({ PK: sitePk(siteId), SK: `RESULTS#CHUNK#${generation}#${String(index).padStart(4, '0')}` }),
  state: (siteId: number): Key => ({ PK: sitePk(siteId), SK: 'RESULTS#STATE' }),
};

const headCodec = defineCodec<ResultsHead>({ kind: 'results snapshot', schema: storedResultsHead, keys: (head) => resultsKeys.head(head.siteId) });
const stateCodec = defineCodec<ResultsState>({ kind: 'results state', schema: storedResultsState, keys: (state) => resultsKeys.state(state.siteId) });
const readChunk = defineCodec<{ data: Uint8Array }>({ kind: 'results chunk', schema: storedResultsChunk, keys: () => ({}) }).fromItem;

/** The snapshot's head, or undefined before the first snapshot. Plannable: request setup reads it ahead. */
export const getResultsHead = Object.assign(
  async (siteId: number): Promise<ResultsHead | undefined> => {
    const item = await getItem(resultsKeys.head(siteId));
    return item ? headCodec.fromItem(item) : undefined;
  },
  { plan: planOf((siteId: number) => [resultsKeys.head(siteId)]) },
);

/** The body's gzipped bytes: from the head, or its chunks (one BatchGet). Undefined when a chunk is gone (re-read the head). */
export async function readResultsBody(head: ResultsHead): Promise<Uint8Array[] | undefined> {
  if (head.chunks === 0) return head.body ? [head.body] : undefined;
  const keyList = Array.from({ length: head.chunks }, (_, i) => resultsKeys.chunk(head.siteId, head.generation, i));
  const items = await getItems(keyList);
  if (items.length !== head.chunks) return undefined;
  const byKey = new Map(items.map((item) => [item.SK as string, readChunk(item).data]));
  return keyList.map((key) => byKey.get(key.SK)!);
}

interface SnapshotWrite {
  head: Omit<ResultsHead, 'chunks' | 'body'>;
  /** The gzipped body in pieces (one: it goes into the head). */
  chunks: readonly Uint8Array[];
  /** The head it replaces (its generation and chunk count), or null for the first snapshot. */
  replaces: Pick<ResultsHead, 'generation' | 'chunks'> | null;
}

/** Writes a snapshot; false when another writer replaced the head meanwhile (then nothing is lost: theirs stands). */
export async function writeResultsSnapshot({ head, chunks, replaces }: SnapshotWrite, now: Date): Promise<boolean> {
  const inline = chunks.length === 1;
  // The new generation's chunks first (throttled puts are sent again with backoff, then a 503).
  if (!inline) await batchPut(chunks.map((data, i) => ({ ...resultsKeys.chunk(head.siteId, head.generation, i), data })));
  const item = headCodec.toItem({ ...head, chunks: inline ? 0 : chunks.length, ...(inline ? { body: chunks[0]! } : {}) });
  try {
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: item,
        ...(replaces
          ? { ConditionExpression: 'generation = :replaced', ExpressionAttributeValues: { ':replaced': replaces.generation } }
          : { ConditionExpression: 'attribute_not_exists(PK)' }),
      }),
    );
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
  if (replaces && replaces.chunks > 0) {
    const ttl = Math.floor(now.getTime() / 1000) + OLD_CHUNKS_SECONDS;
    await Promise.all(
      Array.from({ length: replaces.chunks }, (_, i) =>
        doc.send(new UpdateCommand({ TableName: TABLE, Key: resultsKeys.chunk(head.siteId, replaces.generation, i), ...update({ set: { ttl } }) })),
      ),
    );
  }
  return true;
}

export async function getResultsState(siteId: number): Promise<ResultsState | undefined> {
  const item = await getItem(resultsKeys.state(siteId), { consistent: true });
  return item ? stateCodec.fromItem(item) : undefined;
}

/**
 * Takes the site's computation lease until `until` for `owner`: true when nobody else holds one that
 * is still running. At most one computation per site at a time, whoever asks (the job, a moderator).
 */
export async function takeResultsLease(siteId: number, owner: string, now: Date, until: Date): Promise<boolean> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: resultsKeys.state(siteId),
        ...withCondition(update({ set: { siteId, leaseOwner: owner, leaseUntil: until.toISOString() } }), {
          expression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now OR leaseOwner = :owner',
          values: { ':now': now.toISOString(), ':owner': owner },
        }),
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/**
 * Ends `owner`'s lease, storing where an unfinished computation stands, clearing it when done, leaving
 * it as it was when the computation failed or was not needed. When done, `staleSince` goes too unless it is later than
 * what the snapshot covered (a change since).
 */
export async function releaseResultsLease(siteId: number, owner: string, outcome: { progress: string } | { coveredFrom: string } | { unchanged: true }): Promise<void> {
  const done = 'coveredFrom' in outcome;
  const progress = 'progress' in outcome ? outcome.progress : undefined;
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: resultsKeys.state(siteId),
        // Done: the progress goes; unfinished: the progress is stored; otherwise it stays as it was.
        ...withCondition(update({ set: { progress }, remove: done ? ['leaseOwner', 'leaseUntil', 'progress'] : ['leaseOwner', 'leaseUntil'] }), {
          expression: 'leaseOwner = :owner',
          values: { ':owner': owner },
        }),
      }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err;
    return; // the lease ran out and someone else took it: theirs is the state now
  }
  if (done) {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: resultsKeys.state(siteId),
          ...withCondition(update({ remove: ['staleSince'] }), { expression: 'staleSince <= :covered', values: { ':covered': outcome.coveredFrom } }),
        }),
      );
    } catch (err) {
      if (!conditionFailed(err)) throw err; // not stale, or stale since after the read: stays
    }
  }
}

/** Marks the results stale since `since` (kept when already stale earlier): one write per checkpoint run, never per vote. */
export async function markResultsStale(siteId: number, since: string): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: resultsKeys.state(siteId),
      ...update({ set: { siteId }, setIfAbsent: { staleSince: since } }),
    }),
  );
}
