/**
 * "Nothing stored changes on a rejected request": everything of a site lives under `PK = SITE#<id>`
 * (docs/data-model.md), so one consistent Query of that partition before and after requests shows
 * any write they made, partial or not. Id counters (`PK = COUNTER`) are outside the partition: an id
 * burned by a rejected create is acceptable as long as nothing else changed.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { siteKeys } from '#lib/store/sites/keys';
import { queryAll } from '#lib/store/db/query';

export type Snapshot = Record<string, unknown>[];

/** Every item of the sites' partitions, in key order. */
export async function snapshotSites(siteIds: readonly number[]): Promise<Snapshot> {
  const parts = await Promise.all(
    siteIds.map((siteId) =>
      queryAll<Record<string, unknown>>({
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': sitePk(siteId) },
        ConsistentRead: true,
      }),
    ),
  );
  return parts.flat();
}

/** The keys of items that differ between two snapshots (added, removed or changed), for the message. */
export function changedKeys(before: Snapshot, after: Snapshot): string[] {
  const index = (snapshot: Snapshot) => new Map(snapshot.map((item) => [`${String(item.PK)} ${String(item.SK)}`, item]));
  const a = index(before);
  const b = index(after);
  const changed: string[] = [];
  for (const [key, item] of a) {
    if (!b.has(key)) changed.push(`removed ${key}`);
    else if (!sameValue(item, b.get(key))) changed.push(`changed ${key}`);
  }
  for (const key of b.keys()) if (!a.has(key)) changed.push(`added ${key}`);
  return changed;
}

/** Deep equality over what the DocumentClient returns (plain values, arrays, objects, Sets). */
function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x instanceof Set && y instanceof Set) return x.size === y.size && [...x].every((v) => y.has(v));
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.length !== ky.length) return false;
  return kx.every((k) => Object.hasOwn(y, k) && sameValue((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]));
}

/** Throws when a site's partition changed. */
export async function assertUnchanged(siteIds: readonly number[], before: Snapshot, request?: string): Promise<void> {
  const after = await snapshotSites(siteIds);
  const changed = changedKeys(before, after);
  if (changed.length > 0) {
    throw new Error(`A rejected request changed stored data: ${changed.join(', ')}${request ? `\n  request: ${request}` : ''}`);
  }
}

/** Sites whose name starts with `prefix` (a rejected site create must not have made one). One Scan. */
export async function sitesNamed(prefix: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new ScanCommand({
        TableName: TABLE,
        FilterExpression: 'SK = :site AND begins_with(#name, :prefix)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':site': siteKeys.site(0).SK, ':prefix': prefix },
        ExclusiveStartKey: start,
      }),
    );
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
