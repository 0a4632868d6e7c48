/**
 * Brute-force counters (lib/request/rate-limit.ts): one item per (site, client address, route group,
 * fixed one-minute window), counted with ONE atomic `ADD` that also returns the new count, so the
 * limit holds across Lambda instances at one request per counted call. DynamoDB's TTL removes the
 * item after its window; a lagging TTL never matters, because a later window has another key.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { loginKeys } from '#lib/store/login/keys';
import { recordReader } from '#lib/store/db/codec';
import { storedRateCounter } from '#schemas/stored/counters';
import { update } from '#lib/store/db/update';

/** What the ADD returns (UPDATED_NEW: the count, and the ttl when this request set it). */
const readCounter = recordReader('brute-force counter', storedRateCounter);

/** Adds one to the window's counter and returns the count including this request. */
export async function countRequestInWindow(
  siteId: number,
  address: string,
  group: string,
  windowStartEpoch: number,
  expiresAtEpoch: number,
): Promise<number> {
  const out = await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: loginKeys.rateCounter(siteId, address, group, windowStartEpoch),
      ...update({ add: { count: 1 }, setIfAbsent: { ttl: expiresAtEpoch } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return readCounter(out.Attributes ?? {}).count;
}
