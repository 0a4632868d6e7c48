/**
 * One page of a Query, with the opaque cursor of CONTRACT. Every list endpoint goes through here, so a
 * list page is exactly one Query request.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, GSI1, TABLE } from '#lib/store/client';
import { decodeCursor, encodeCursor } from '#lib/store/cursor';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  pageSize: number;
  cursor?: string | undefined;
}

type QueryShape = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;

/**
 * The attributes of a LastEvaluatedKey, and so of a cursor: the table's key, plus the index's key on
 * GSI1 (table-definition.json; every key attribute is a string).
 */
const keyAttributesOf = (indexName: string | undefined): readonly string[] =>
  indexName === GSI1 ? ['GSI1PK', 'GSI1SK', 'PK', 'SK'] : ['PK', 'SK'];

/**
 * @param guard what the decoded cursor must contain (its partition value and sort-key prefix), so a
 *   cursor cannot be replayed against another site or another query.
 */
export async function queryPage<T>(
  input: QueryShape,
  page: PageRequest,
  guard: { values: Record<string, string>; skPrefix?: string; skAttribute?: string },
): Promise<Page<T>> {
  const start = decodeCursor(page.cursor, { ...guard, keyAttributes: keyAttributesOf(input.IndexName) });
  const out = await doc.send(
    new QueryCommand({ TableName: TABLE, ...input, Limit: page.pageSize, ExclusiveStartKey: start }),
  );
  return { items: (out.Items ?? []) as T[], nextCursor: encodeCursor(out.LastEvaluatedKey) };
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
