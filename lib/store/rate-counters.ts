/**
 * Brute-force counters (lib/request/rate-limit.ts): one item per (site, client address, route group,
 * fixed one-minute window), counted with ONE atomic `ADD` that also returns the new count, so the
 * limit holds across Lambda instances at one request per counted call. DynamoDB's TTL removes the
 * item after its window; a lagging TTL never matters, because a later window has another key.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys } from '#lib/store/keys';
import { recordReader } from '#lib/store/codec';
import { storedRateCounter } from '#schemas/stored/counters';

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
      Key: keys.rateCounter(siteId, address, group, windowStartEpoch),
      UpdateExpression: 'ADD #n :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#n': 'count', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAtEpoch },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return readCounter(out.Attributes ?? {}).count;
}
