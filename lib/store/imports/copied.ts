/**
 * What an import knows it copied to a site, for a rerun to tell "copied before, gone now" (deleted
 * here: not to be recreated) from "not reached yet" (to copy). Besides each imported user's id claim
 * (lib/store/users/users.ts), which imports before claims did not write:
 * - its record that it went through all the site's users (importKeys.usersCopied), written when the
 *   users of a site are done;
 * - for a run before that record: ids of a type that only this import hands out on a site (its
 *   reservation's range, lib/store/imports/reservations.ts) are written in id order, users first, then
 *   tags, ideas, articles, signups. So a user of the import's range stored on the site with a higher
 *   id, or any tag, idea, article or signup of the import's range stored on it, shows the earlier run
 *   went past every user below (all users, for the later kinds).
 * What stays unknown: a run before the record that copied some users and stopped, and whose
 * highest-id user was then deleted here; those users are copied again.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { pad, sitePk } from '#lib/store/db/keys';
import { importKeys } from '#lib/store/imports/keys';
import { conditionFailed } from '#lib/store/db/failures';
import type { CounterType } from '#lib/store/db/counters';
import type { ImportReservation } from '#lib/store/imports/reservations';

/** The highest id stored on the site under `prefix` within (low, high], or undefined. One Query, one key. */
async function highestStored(siteId: number, prefix: string, low: number, high: number): Promise<number | undefined> {
  if (high <= low) return undefined;
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':low': `${prefix}${pad(low + 1)}`, ':high': `${prefix}${pad(high)}` },
      ProjectionExpression: 'SK',
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const sk = out.Items?.[0]?.['SK'];
  return typeof sk === 'string' ? Number.parseInt(sk.slice(prefix.length), 10) : undefined;
}

const LATER_KINDS: [CounterType, string][] = [
  ['tag', 'TAG#'],
  ['idea', 'IDEA#'],
  ['article', 'ARTICLE#'],
  ['signup', 'SIGNUP#'],
];

/**
 * The user ids of the site an earlier run of this import went past: every id (`all`) or those below
 * `below`. A few small strongly consistent reads.
 */
export async function usersReachedBefore(source: string, siteId: number, reservation: ImportReservation): Promise<(userId: number) => boolean> {
  const marker = await doc.send(new GetCommand({ TableName: TABLE, Key: importKeys.usersCopied(source, siteId), ConsistentRead: true }));
  if (marker.Item) return () => true;
  const range = (type: CounterType): [number, number] => [reservation.floors[type] ?? 0, reservation.ceilings[type] ?? 0];
  for (const [type, prefix] of LATER_KINDS) {
    if ((await highestStored(siteId, prefix, ...range(type))) !== undefined) return () => true;
  }
  const highest = await highestStored(siteId, 'USER#', ...range('user'));
  return (userId) => highest !== undefined && userId < highest;
}

/** Records that this import went through every user of the site (once: a rerun leaves the first record). */
export async function recordUsersCopied(source: string, siteId: number, now = new Date()): Promise<void> {
  try {
    await doc.send(
      new PutCommand({ TableName: TABLE, Item: { ...importKeys.usersCopied(source, siteId), at: now.toISOString() }, ConditionExpression: 'attribute_not_exists(PK)' }),
    );
  } catch (err) {
    if (!conditionFailed(err)) throw err;
  }
}
