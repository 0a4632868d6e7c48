/**
 * The index items that let the idea list filter by keys instead of scanning
 * (docs/data-model.md "Discovery"). Each idea has, under its site's partition, one small item per
 *   tag            `IX#T#<tag>#<idea>`
 *   status         `IX#S#<status>#<idea>`
 *   word prefix    `IX#W#<1..3 first letters of a word>#<idea>`
 *   geohash cell   `IX#G#<precision 0..7>#<cell>#<idea>` (with `lat`, `lng`; only with a location)
 * so every stream is in idea id order (= creation order) and one Query pages through it.
 *
 * The idea item lists its own index entries (`indexKeys`), so an update writes only the difference
 * (version-conditioned like the idea itself, so the list is exact) and a delete knows what to remove.
 * Index items are written in the idea's own transaction when everything fits in DynamoDB's 100
 * actions; an idea with a very long text spills: its new items are put BEFORE the transaction and
 * its stale ones deleted AFTER it. Either way the index holds at least every entry of the stored
 * idea, and readers check each candidate against the idea item itself, so an extra (stale) entry
 * never shows and a missing one cannot happen.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '#lib/errors';
import { doc, TABLE } from '#lib/store/db/client';
import { decodeCursor, encodeCursor, type CursorScope } from '#lib/store/db/cursor';
import { idFromSk, MAX_KEY_ID, pad, sitePk, type Key } from '#lib/store/db/keys';
import { contentKeys } from '#lib/store/content/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { tagKeys } from '#lib/store/tags/keys';
import { queryAll } from '#lib/store/db/query';
import { DELETING, type ContentItem } from '#lib/store/content/content-items';
import { contentItemCodec } from '#lib/store/content/codec';
import { type TransactItem } from '#lib/store/db/transact';

/** What the idea item keeps of its index (see above). */
export const INDEX_KEYS = 'indexKeys';

/** What an idea is found by; built from the idea by lib/discovery/index-spec.ts. */
export interface IdeaIndexSpec {
  tags: readonly number[];
  status: string;
  /** Word prefixes of 1..3 characters (normalised). */
  prefixes: readonly string[];
  /** `cells[p]` is the geohash cell at precision p (cells[0] is ''). */
  location: { lat: number; lng: number; cells: readonly string[] } | null;
}

/** One entry: the SK, plus `|lat|lng` on geo entries (a move inside the same cells still rewrites them). */
function entriesOf(siteId: number, ideaId: number, spec: IdeaIndexSpec): string[] {
  const sk = (stream: string) => ideaKeys.ideaIndexItem(siteId, stream, ideaId).SK;
  const out = [
    sk(ideaKeys.ideaStatusStream(spec.status)),
    ...spec.tags.map((tag) => sk(ideaKeys.ideaTagStream(tag))),
    ...spec.prefixes.map((prefix) => sk(ideaKeys.ideaWordStream(prefix))),
  ];
  if (spec.location) {
    const { lat, lng, cells } = spec.location;
    for (const [precision, cell] of cells.entries()) out.push(`${sk(ideaKeys.ideaGeoStream(precision, cell))}|${lat}|${lng}`);
  }
  return [...new Set(out)];
}

function itemOf(siteId: number, ideaId: number, entry: string): Record<string, unknown> {
  const [SK, lat, lng] = entry.split('|');
  return { PK: sitePk(siteId), SK, ideaId, ...(lat !== undefined ? { lat: Number(lat), lng: Number(lng) } : {}) };
}

const keyOf = (siteId: number, entry: string): Key => ({ PK: sitePk(siteId), SK: entry.split('|')[0]! });

interface IndexPlan {
  /** The entries to store on the idea item. */
  entries: string[];
  puts: Record<string, unknown>[];
  deletes: Key[];
  /** Tags the idea did not have before: the write checks that each still exists. */
  addedTags: number[];
}

/** The difference between the entries an idea has and those its new state needs. */
export function planIndex(siteId: number, ideaId: number, old: readonly string[] | undefined, spec: IdeaIndexSpec): IndexPlan {
  const before = new Set(old ?? []);
  const entries = entriesOf(siteId, ideaId, spec);
  const after = new Set(entries);
  // Geo entries that changed only in their coordinates keep their SK: the Put overwrites, no Delete.
  const putSks = new Set(entries.filter((e) => !before.has(e)).map((e) => e.split('|')[0]));
  const oldSks = new Set([...before].map((e) => e.split('|')[0]));
  return {
    entries,
    puts: entries.filter((e) => !before.has(e)).map((e) => itemOf(siteId, ideaId, e)),
    deletes: [...before].filter((e) => !after.has(e) && !putSks.has(e.split('|')[0])).map((e) => keyOf(siteId, e)),
    addedTags: spec.tags.filter((tag) => !oldSks.has(ideaKeys.ideaIndexItem(siteId, ideaKeys.ideaTagStream(tag), ideaId).SK)),
  };
}

export const indexActions = (plan: IndexPlan): TransactItem[] => [
  ...plan.puts.map((Item) => ({ Put: { TableName: TABLE, Item } })),
  ...plan.deletes.map((Key) => ({ Delete: { TableName: TABLE, Key } })),
];

/** The keys of every index entry of a list of entries (delete paths). */
export const indexKeysOf = (siteId: number, entries: readonly string[]): Key[] => entries.map((e) => keyOf(siteId, e));

/** The idea's own list of entries, read consistently (the delete reads its tombstone). */
export async function readIndexEntries(siteId: number, ideaId: number): Promise<string[]> {
  const out = await doc.send(
    new GetCommand({
      TableName: TABLE,
      Key: contentKeys.idea(siteId, ideaId),
      ConsistentRead: true,
      ProjectionExpression: '#ix',
      ExpressionAttributeNames: { '#ix': INDEX_KEYS },
    }),
  );
  return (out.Item?.[INDEX_KEYS] as string[] | undefined) ?? [];
}

/** A tag the idea is given must exist and not be being deleted, checked in the idea's write. */
export const tagIsLive = (siteId: number, tagId: number): TransactItem => ({
  ConditionCheck: {
    TableName: TABLE,
    Key: tagKeys.tag(siteId, tagId),
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#deleting)',
    ExpressionAttributeNames: { '#deleting': 'deletingAt' },
  },
});

// Reading ----------------------------------------------------------------------------------------

export type IndexStream =
  | { kind: 'tag'; tag: number }
  | { kind: 'status'; status: string }
  | { kind: 'word'; prefix: string }
  | { kind: 'geo'; precision: number; cell: string };

const streamPrefix = (stream: IndexStream): string =>
  stream.kind === 'tag'
    ? ideaKeys.ideaTagStream(stream.tag)
    : stream.kind === 'status'
      ? ideaKeys.ideaStatusStream(stream.status)
      : stream.kind === 'word'
        ? ideaKeys.ideaWordStream(stream.prefix)
        : ideaKeys.ideaGeoStream(stream.precision, stream.cell);

export interface IndexHit {
  id: number;
  lat?: number;
  lng?: number;
}

const projection = { ProjectionExpression: 'SK, #lat, #lng', ExpressionAttributeNames: { '#lat': 'lat', '#lng': 'lng' } };
const toHit = (raw: Record<string, unknown>): IndexHit => ({
  id: idFromSk(raw.SK as string),
  ...(typeof raw.lat === 'number' ? { lat: raw.lat, lng: raw.lng as number } : {}),
});

/**
 * One Query of at most `limit` entries of a stream, in id order, strictly after the id `after`
 * (in the direction read). `more`: the stream may hold further entries.
 */
export async function queryStream(
  siteId: number,
  stream: IndexStream,
  options: { after?: number | undefined; forward: boolean; limit: number },
): Promise<{ hits: IndexHit[]; more: boolean }> {
  const prefix = streamPrefix(stream);
  // Both ends explicit (BETWEEN, not begins_with): the same range for DynamoDB, and DynamoDB Local
  // otherwise walks the rest of the partition on a backward read (measured: 20x slower at 10,000 ideas).
  const first = options.after === undefined || !options.forward ? 0 : options.after + 1;
  const last = options.after === undefined || options.forward ? MAX_KEY_ID : options.after - 1;
  if (last < first) return { hits: [], more: false };
  const condition = 'PK = :pk AND SK BETWEEN :from AND :to';
  const values: Record<string, unknown> = { ':pk': sitePk(siteId), ':from': `${prefix}${pad(first)}`, ':to': `${prefix}${pad(last)}` };
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ScanIndexForward: options.forward,
      Limit: options.limit,
      ...projection,
    }),
  );
  return { hits: (out.Items ?? []).map(toHit), more: out.LastEvaluatedKey !== undefined };
}

/** The whole id range of a stream, both ends explicit (see queryStream). */
const wholeStream = (siteId: number, stream: IndexStream) => ({
  KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
  ExpressionAttributeValues: { ':pk': sitePk(siteId), ':from': `${streamPrefix(stream)}${pad(0)}`, ':to': `${streamPrefix(stream)}${pad(MAX_KEY_ID)}` },
});

/** Every entry of a stream (the geo cells of a `sort=distance` page: small items, 1 MB per request). */
export async function readStream(siteId: number, stream: IndexStream): Promise<IndexHit[]> {
  const items = await queryAll<Record<string, unknown>>({
    ...wholeStream(siteId, stream),
    ...projection,
  });
  return items.map(toHit);
}

/** The ids in a stream, read consistently (a tag delete sweeps its members). */
export async function allIdsOfStream(siteId: number, stream: IndexStream): Promise<number[]> {
  const items = await queryAll<{ SK: string }>({
    ...wholeStream(siteId, stream),
    ProjectionExpression: 'SK',
    ConsistentRead: true,
  });
  return items.map((item) => idFromSk(item.SK));
}

export const streamItemKey = (siteId: number, stream: IndexStream, ideaId: number): Key =>
  ideaKeys.ideaIndexItem(siteId, streamPrefix(stream), ideaId);

// Cursors of filtered lists ----------------------------------------------------------------------

/** A position in a filtered list: after idea `id` (and, ordered by distance, at distance `d`). */
export interface ListPosition {
  id: number;
  d?: number;
}

/**
 * `binding` names the list and its exact query (filters and sort, hashed by the caller), so a cursor
 * only continues the query it came from.
 */
export const encodeListCursor = (siteId: number, binding: string, position: ListPosition): string =>
  encodeCursor({ PK: sitePk(siteId), list: binding, ...position }, filteredListScope(siteId, binding))!;

/** The sealed-cursor scope of a filtered list: the binding already names the list and its exact query. */
const filteredListScope = (siteId: number, binding: string): CursorScope => ({ siteId, list: 'ideas-filtered', query: { binding } });

export function decodeListCursor(cursor: string | undefined, siteId: number, binding: string, withDistance: boolean): ListPosition | undefined {
  const key = decodeCursor(cursor, filteredListScope(siteId, binding), { values: { PK: sitePk(siteId), list: binding } });
  if (!key) return undefined;
  const { id, d } = key;
  const bad = () => badRequest('Invalid cursor');
  if (!Number.isSafeInteger(id) || (id as number) < 1) throw bad();
  if (withDistance !== (d !== undefined)) throw bad();
  if (d !== undefined && (typeof d !== 'number' || !(d >= 0))) throw bad();
  if (Object.keys(key).length !== (withDistance ? 4 : 3)) throw bad();
  return withDistance ? { id: id as number, d: d as number } : { id: id as number };
}

/** An idea read consistently (the tag delete decides on it), or undefined when it is gone or a tombstone. */
export async function getIdeaConsistently(siteId: number, ideaId: number): Promise<ContentItem | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: contentKeys.idea(siteId, ideaId), ConsistentRead: true }));
  if (!out.Item || out.Item[DELETING] !== undefined) return undefined;
  return contentItemCodec.fromItem(out.Item);
}
