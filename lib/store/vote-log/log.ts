/**
 * The vote log's items (docs/results.md "The vote record"), every key written here:
 *
 *   `VLOG#E#<writtenAt>#<receipt>`   an entry: one version of one ballot, immutable (a conditional Put in
 *                                    the transaction of the write that makes it); SK order is log order
 *   `VLOG#HEAD`                      where the log stands (size, right edge, latest checkpoint) and the
 *                                    sequencer's lease: written only by the vote-checkpoints job
 *   `VLOG#T#<level>#<index>`         a tile (lib/vote-record/tiles.ts): 256 receipts or subtree hashes
 *   `VLOG#R#<receipt>`               where a receipt's entry is in the log, and the first checkpoint over it
 *   `VLOG#C#<n>`                     signed checkpoint n (1, 2, 3, ... per site)
 *
 * No item here is written by every vote round but the round's own entry: the order is fixed by the
 * job reading entries by time, not by a counter.
 */
import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchPut } from '#lib/store/db/batch';
import { doc, TABLE } from '#lib/store/db/client';
import { CorruptRecordError } from '#lib/errors';
import { defineCodec, itemKeyOf, recordChecker, recordReader, type Checked, type MalformedItem } from '#lib/store/db/codec';
import { conditionFailed, failedConditions } from '#lib/store/db/failures';
import { sitePk, type Key } from '#lib/store/db/keys';
import { queryAll, queryCount, queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { planOf } from '#lib/store/db/prefetch';
import { getItem } from '#lib/store/db/read';
import { update, withCondition } from '#lib/store/db/update';
import { isCanonicalInstant } from '#schemas/stored/read';
import {
  storedLogEntry,
  storedLogHead,
  storedLogTile,
  storedReceiptIndex,
  storedSignedCheckpoint,
  type StoredLogEntry,
  type StoredLogHead,
  type StoredReceiptIndex,
  type StoredSignedCheckpoint,
} from '#schemas/stored/vote-log';

export type LogEntryItem = StoredLogEntry;
export type LogHead = StoredLogHead;
export type SignedCheckpointItem = StoredSignedCheckpoint;
type ReceiptIndex = StoredReceiptIndex;

const ENTRY = 'VLOG#E#';
const CHECKPOINT = 'VLOG#C#';
/** Sorts after every receipt (lowercase hex): the end of an instant's entries in a key range. */
export const AFTER_RECEIPTS = '~';

export const voteLogKeys = {
  entry: (siteId: number, writtenAt: string, receipt: string): Key => ({ PK: sitePk(siteId), SK: `${ENTRY}${writtenAt}#${receipt}` }),
  head: (siteId: number): Key => ({ PK: sitePk(siteId), SK: 'VLOG#HEAD' }),
  tile: (siteId: number, level: number, index: number): Key => ({ PK: sitePk(siteId), SK: `VLOG#T#${level}#${String(index).padStart(10, '0')}` }),
  receipt: (siteId: number, receipt: string): Key => ({ PK: sitePk(siteId), SK: `VLOG#R#${receipt}` }),
  checkpoint: (siteId: number, id: number): Key => ({ PK: sitePk(siteId), SK: `${CHECKPOINT}${String(id).padStart(10, '0')}` }),
  checkpointPrefix: CHECKPOINT,
};

const entryCodec = defineCodec<LogEntryItem>({ kind: 'vote log entry', schema: storedLogEntry, keys: (e) => voteLogKeys.entry(e.siteId, e.writtenAt, e.mac) });
const headCodec = defineCodec<LogHead>({ kind: 'vote log head', schema: storedLogHead, keys: (h) => voteLogKeys.head(h.siteId) });
const checkpointCodec = defineCodec<SignedCheckpointItem>({ kind: 'signed vote checkpoint', schema: storedSignedCheckpoint, keys: (c) => voteLogKeys.checkpoint(c.siteId, c.id) });
const readTile = recordReader('vote log tile', storedLogTile);
const readReceipt = recordReader('vote receipt', storedReceiptIndex);

// ---- entries ----

/** The Put of a new entry, for the transaction of the write that makes it. */
export const logEntryPut = (entry: LogEntryItem) => ({
  Put: { TableName: TABLE, Item: entryCodec.toItem(entry), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** The newest entry's time, or undefined for a log without entries: one Query of one key. */
export async function newestLogEntryAt(siteId: number): Promise<string | undefined> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': ENTRY },
      ScanIndexForward: false,
      Limit: 1,
      ProjectionExpression: 'writtenAt',
      ConsistentRead: true,
    }),
  );
  const at = out.Items?.[0]?.writtenAt;
  return typeof at === 'string' ? at : undefined;
}

/**
 * How many entries were written after `after` (exclusive), counting no further than `atMost + 1`: a
 * consistent COUNT Query that reads at most that many entries (one request per 1 MB of them). The log
 * only grows, so a count above what was seen before means an entry committed since.
 */
export const countLogEntriesAfter = (siteId: number, after: string, atMost?: number): Promise<number> =>
  queryCount(
    {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':from': `${ENTRY}${after}#${AFTER_RECEIPTS}`, ':to': `${ENTRY}${AFTER_RECEIPTS}` },
      ConsistentRead: true,
    },
    atMost,
  );

/**
 * An entry as the sequencer reads it, in log order: the time its key gives (what orders it in the log)
 * and the entry, or what is wrong with an item of the entry range that is no entry (a writer put it
 * there): the job leaves such an item out and reports it, never fails on it.
 */
export type LogEntryRead = { sk: string; at: string | null } & Checked<LogEntryItem>;

/**
 * The time in an entry's key (`VLOG#E#<writtenAt>#<receipt>`), or null when the key holds no instant
 * as the service writes it: a made-up key's text may parse to a time far from where the key sorts
 * (another UTC offset), so the sequencer never cuts the log at it.
 */
function keyTimeOf(sk: string): string | null {
  const at = sk.slice(ENTRY.length, Math.max(ENTRY.length, sk.lastIndexOf('#')));
  return isCanonicalInstant(at) ? at : null;
}

/** An item of the entry range as the sequencer takes it: an entry only under its own key (a copy under another key is no entry). */
function checkedAt(item: Record<string, unknown>): LogEntryRead {
  const sk = String(item.SK);
  const checked = entryCodec.check(item);
  if ('record' in checked && voteLogKeys.entry(checked.record.siteId, checked.record.writtenAt, checked.record.mac).SK !== sk) {
    return { sk, at: keyTimeOf(sk), malformed: { key: itemKeyOf(item), problem: 'its key is not its entry\'s time and receipt' } };
  }
  return { sk, at: keyTimeOf(sk), ...checked };
}

/** Entries written after `after` (exclusive; none: from the start) up to `until` (inclusive), in log order: consistent. */
export async function readLogEntries(siteId: number, after: string | null, until: string, limit?: number): Promise<LogEntryRead[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': sitePk(siteId), ':from': after ? `${ENTRY}${after}#${AFTER_RECEIPTS}` : ENTRY, ':to': `${ENTRY}${until}#${AFTER_RECEIPTS}` },
        ConsistentRead: true,
        ExclusiveStartKey: start,
        ...(limit !== undefined ? { Limit: limit - items.length } : {}),
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && (limit === undefined || items.length < limit));
  return items.map(checkedAt);
}

/** Records and, apart, the items that did not match their schema (the audit reports those). */
interface CheckedRead<T> {
  records: T[];
  malformed: MalformedItem[];
}

const split = <T>(checked: readonly Checked<T>[]): CheckedRead<T> => ({
  records: checked.flatMap((c) => ('record' in c ? [c.record] : [])),
  malformed: checked.flatMap((c) => ('malformed' in c ? [c.malformed] : [])),
});

/** The records of a checked read, or the first malformed item's CorruptRecordError (readers that cannot go on without every item). */
function strict<T>(kind: string, read: CheckedRead<T>): T[] {
  const [first] = read.malformed;
  if (first) throw new CorruptRecordError(kind, first.key, { path: '', message: first.problem });
  return read.records;
}

/** Every entry of the site, in log order (the audit), consistent; items of the range that are no entry apart. */
export async function readAllLogEntriesChecked(siteId: number): Promise<CheckedRead<LogEntryItem>> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': ENTRY },
    ConsistentRead: true,
  });
  return split(items.map(entryCodec.check));
}

/** Every entry of the site, in log order, consistent; a malformed item is a CorruptRecordError. */
export const readAllLogEntries = async (siteId: number): Promise<LogEntryItem[]> => strict(entryCodec.kind, await readAllLogEntriesChecked(siteId));

// ---- the head and its lease ----

export async function getLogHead(siteId: number): Promise<LogHead | undefined> {
  const item = await getItem(voteLogKeys.head(siteId), { consistent: true });
  return item ? headCodec.fromItem(item) : undefined;
}

/** Clocks of two runs may differ by this much: a lease ending later than this past a new one's end is none. */
const LEASE_CLOCK_SKEW_MS = 60_000;

/**
 * Takes the sequencer's lease on the site's log for `owner` until `until` (creating the head of an empty
 * log): the head as it stands, or undefined when another run holds a lease that has not run out. A
 * lease that ends further ahead than any run takes one (`until` plus the clock skew), or is no instant
 * text at all, was never taken by a run: it is taken over, so a writer cannot hold the log for ever.
 */
export async function takeLogLease(siteId: number, owner: string, now: Date, until: Date): Promise<LogHead | undefined> {
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: voteLogKeys.head(siteId),
        // An empty log's head starts at size 0 with no edge, checkpoint, cut or ballots.
        ...withCondition(update({ set: { siteId, leaseOwner: owner, leaseUntil: until.toISOString() }, setIfAbsent: { size: 0, frontier: [], checkpointId: 0, cut: '', ballots: 0 } }), {
          expression: 'attribute_not_exists(leaseUntil) OR NOT attribute_type(leaseUntil, :text) OR leaseUntil < :now OR leaseUntil > :latest OR leaseOwner = :owner',
          values: { ':now': now.toISOString(), ':latest': new Date(until.getTime() + LEASE_CLOCK_SKEW_MS).toISOString(), ':text': 'S', ':owner': owner },
        }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    const head = headCodec.check(out.Attributes!);
    if ('record' in head) return head.record;
    // A head a writer made unreadable: the lease just taken goes back, and the run reports the head.
    await releaseLogLease(siteId, owner);
    throw new CorruptRecordError(headCodec.kind, head.malformed.key, { path: '', message: head.malformed.problem });
  } catch (err) {
    if (conditionFailed(err)) return undefined;
    throw err;
  }
}

export async function releaseLogLease(siteId: number, owner: string): Promise<void> {
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: voteLogKeys.head(siteId),
        ...withCondition(update({ remove: ['leaseOwner', 'leaseUntil'] }), { expression: 'leaseOwner = :owner', values: { ':owner': owner } }),
      }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}

/**
 * Publishes a checkpoint: the signed checkpoint and the head moved on, in ONE transaction conditioned
 * on this run's lease, on the size it extends and on the cut it goes on from being the signed cut of the
 * checkpoint before it (`from`; none for the first): a head whose cut a writer moved back (to make the
 * job sequence entries again) signs nothing. 'lease-lost' when another run holds the log,
 * 'cut-not-signed' when the previous checkpoint does not carry that cut.
 */
export async function publishSignedCheckpoint(
  checkpoint: SignedCheckpointItem,
  head: Omit<LogHead, 'leaseOwner' | 'leaseUntil'>,
  owner: string,
  from: { size: number; checkpointId: number; cut: string },
): Promise<'published' | 'lease-lost' | 'cut-not-signed'> {
  const previous = from.checkpointId > 0
    ? [{ ConditionCheck: { TableName: TABLE, Key: voteLogKeys.checkpoint(checkpoint.siteId, from.checkpointId), ConditionExpression: 'cut = :cut', ExpressionAttributeValues: { ':cut': from.cut } } }]
    : [];
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: checkpointCodec.toItem(checkpoint), ConditionExpression: 'attribute_not_exists(PK)' } },
          {
            Update: {
              TableName: TABLE,
              Key: voteLogKeys.head(checkpoint.siteId),
              ...withCondition(
                update({
                  set: { size: head.size, frontier: head.frontier, checkpointId: head.checkpointId, cut: head.cut, ballots: head.ballots, complete: head.complete, sealScan: head.sealScan, indexing: head.indexing ?? [from.size, from.size] },
                }),
                { expression: 'leaseOwner = :owner AND #size = :from', names: { '#size': 'size' }, values: { ':owner': owner, ':from': from.size } },
              ),
            },
          },
          ...previous,
        ],
      }),
    );
    return 'published';
  } catch (err) {
    if (!conditionFailed(err)) throw err;
    return failedConditions(err)?.[2]?.Code === 'ConditionalCheckFailed' ? 'cut-not-signed' : 'lease-lost';
  }
}

/** The receipts of the latest checkpoint are all indexed. */
export async function finishIndexing(siteId: number, owner: string): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: voteLogKeys.head(siteId),
      ...withCondition(update({ remove: ['indexing'] }), { expression: 'leaseOwner = :owner', values: { ':owner': owner } }),
    }),
  );
}

// ---- tiles ----

interface StoredTile {
  level: number;
  index: number;
  data: Buffer;
}

export async function readLogTiles(siteId: number, ids: readonly { level: number; index: number }[]): Promise<StoredTile[]> {
  if (ids.length === 0) return [];
  const items = await batchGet<Record<string, unknown>>(ids.map((id) => voteLogKeys.tile(siteId, id.level, id.index)), { consistentRead: true });
  return items.map((item) => {
    const [, , level, index] = String(item.SK).split('#');
    return { level: Number(level), index: Number(index), data: Buffer.from(readTile(item).data) };
  });
}

/** Writes tiles whole (the rightmost of a level grows; a tile beyond the published size is simply replaced). */
export const writeLogTiles = (siteId: number, tiles: readonly StoredTile[]): Promise<void> =>
  batchPut(tiles.map((tile) => ({ ...voteLogKeys.tile(siteId, tile.level, tile.index), data: tile.data })));

const checkTile = recordChecker(storedLogTile);

/**
 * Every tile of level 0 (the receipts in log order), for the audit: one Query per 1 MB. An item of the
 * range that is no tile (its data not bytes, its index not a number) comes back apart.
 */
export async function readDataTiles(siteId: number): Promise<CheckedRead<StoredTile>> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': 'VLOG#T#0#' },
    ConsistentRead: true,
  });
  return split(
    items.map((item): Checked<StoredTile> => {
      const index = String(item.SK).split('#')[3] ?? '';
      if (!/^[0-9]{10}$/.test(index)) return { malformed: { key: itemKeyOf(item), problem: 'its key names no tile index' } };
      const tile = checkTile(item);
      return 'record' in tile ? { record: { level: 0, index: Number(index), data: Buffer.from(tile.record.data) } } : tile;
    }),
  );
}

// ---- receipts ----

export const writeReceiptIndex = (siteId: number, entries: readonly { receipt: string; leafIndex: number; checkpointId: number }[]): Promise<void> =>
  batchPut(entries.map((e) => ({ ...voteLogKeys.receipt(siteId, e.receipt), leafIndex: e.leafIndex, checkpointId: e.checkpointId })));

/** Where a receipt is in the log. Plannable: the receipt route reads it with the site. */
export const getReceiptIndex = Object.assign(
  async (siteId: number, receipt: string): Promise<ReceiptIndex | undefined> => {
    const item = await getItem(voteLogKeys.receipt(siteId, receipt));
    return item ? readReceipt(item) : undefined;
  },
  { plan: planOf((siteId: number, receipt: string) => [voteLogKeys.receipt(siteId, receipt)]) },
);

// ---- checkpoints ----

export async function getSignedCheckpoint(siteId: number, id: number): Promise<SignedCheckpointItem | undefined> {
  const item = await getItem(voteLogKeys.checkpoint(siteId, id));
  return item ? checkpointCodec.fromItem(item) : undefined;
}

export async function latestSignedCheckpoint(siteId: number): Promise<SignedCheckpointItem | undefined> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': CHECKPOINT },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0];
  return item ? checkpointCodec.fromItem(item) : undefined;
}

/** Every checkpoint of the site, oldest first (the audit, the seal guard); items of the range that are no checkpoint apart. */
export async function readAllSignedCheckpointsChecked(siteId: number): Promise<CheckedRead<SignedCheckpointItem>> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': CHECKPOINT },
    ConsistentRead: true,
  });
  return split(items.map(checkpointCodec.check));
}

/** Every checkpoint of the site, oldest first; a malformed item is a CorruptRecordError. */
export const readAllSignedCheckpoints = async (siteId: number): Promise<SignedCheckpointItem[]> => strict(checkpointCodec.kind, await readAllSignedCheckpointsChecked(siteId));

/** One page of checkpoints, oldest first (the moderators' list): one Query. */
export async function listSignedCheckpoints(siteId: number, page: PageRequest): Promise<Page<SignedCheckpointItem>> {
  const pk = sitePk(siteId);
  const result = await queryPage<Record<string, unknown>>(
    { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': CHECKPOINT } },
    page,
    { values: { PK: pk }, skPrefix: CHECKPOINT },
    { siteId, list: 'signed-vote-checkpoints' },
  );
  return { items: result.items.map(checkpointCodec.fromItem), nextCursor: result.nextCursor };
}
