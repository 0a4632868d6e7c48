/**
 * One page of a Query, with the opaque cursor of CONTRACT. Every list endpoint goes through here, so a
 * list page is exactly one Query request.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, GSI1, TABLE } from '#lib/store/db/client';
import { decodeCursor, encodeCursor, listQueryOf, type CursorScope } from '#lib/store/db/cursor';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A page of a list: the list's parsed query as it came in. Its sort and filters (every parameter but
 * `pageSize`, `cursor` and presentation flags) are part of what the cursor is bound to
 * (lib/store/db/cursor.ts listQueryOf), so pass the whole query.
 */
export interface PageRequest {
  pageSize: number;
  cursor?: string | undefined;
  [parameter: string]: unknown;
}

/** A page with a way to make the cursor of any key of the same query (for pages cut short by size). */
interface QueryPage<T> extends Page<T> {
  cursorOf: (key: Record<string, unknown>) => string;
}

/** Which list a Query is, for its cursors' binding; the site, the list's name and the store's own options. */
interface ListIdentity {
  siteId: number | null;
  list: string;
  options?: Record<string, unknown>;
}

/** The scope of a list's cursors: the client's list-shaping query and the store's shape of the list. */
export const cursorScope = (list: ListIdentity, page: PageRequest, shape: Record<string, unknown> = {}): CursorScope => ({
  siteId: list.siteId,
  list: list.list,
  query: { request: listQueryOf(page), store: { ...shape, options: list.options ?? {} } },
});

type QueryShape = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;

/**
 * The attributes of a LastEvaluatedKey, and so of a cursor: the table's key, plus the index's key on
 * GSI1 (table-definition.json; every key attribute is a string).
 */
const keyAttributesOf = (indexName: string | undefined): readonly string[] =>
  indexName === GSI1 ? ['GSI1PK', 'GSI1SK', 'PK', 'SK'] : ['PK', 'SK'];

/**
 * @param list which list this is (its cursors open only for the same site, list, options and query).
 * @param guard what the opened cursor must contain (its partition value and sort-key prefix): a second
 *   check that it continues this very Query.
 */
export async function queryPage<T>(
  input: QueryShape,
  page: PageRequest,
  guard: { values: Record<string, string>; skPrefix?: string; skAttribute?: string },
  list: ListIdentity,
  /** Stored items per listed entry (an idea and its tally: 2), so a page of `pageSize` entries is read whole. */
  itemsPerEntry = 1,
): Promise<QueryPage<T>> {
  const scope = cursorScope(list, page, {
    index: input.IndexName ?? null,
    forward: input.ScanIndexForward ?? true,
    values: guard.values,
    prefix: guard.skPrefix ?? null,
  });
  const start = decodeCursor(page.cursor, scope, { ...guard, keyAttributes: keyAttributesOf(input.IndexName) });
  const out = await doc.send(
    new QueryCommand({ TableName: TABLE, ...input, Limit: page.pageSize * itemsPerEntry, ExclusiveStartKey: start }),
  );
  return {
    items: (out.Items ?? []) as T[],
    nextCursor: encodeCursor(out.LastEvaluatedKey, scope),
    cursorOf: (key) => encodeCursor(key, scope)!,
  };
}

/** Every item of a query, following LastEvaluatedKey; for sweeps (site delete, cascades), not for lists. */
export async function queryAll<T>(input: QueryShape): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ TableName: TABLE, ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** How many items a query matches (after its filter), following LastEvaluatedKey: COUNT pages, one per 1 MB read; with `atMost`, it stops as soon as it has counted more (the log uses it to see whether anything was added). */
export async function queryCount(input: Omit<QueryShape, 'Select' | 'ProjectionExpression'>, atMost = Number.MAX_SAFE_INTEGER): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    // `atMost`: stop once past it, reading no more than atMost + 1 items (Limit counts the items read).
    const limit = atMost < Number.MAX_SAFE_INTEGER ? { Limit: atMost + 1 - count } : {};
    const out = await doc.send(new QueryCommand({ TableName: TABLE, ...input, ...limit, Select: 'COUNT', ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start && count <= atMost);
  return count;
}
