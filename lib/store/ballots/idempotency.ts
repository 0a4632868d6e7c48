/**
 * Stored responses for `Idempotency-Key` (`SK = IDEMP#<scope>#<key>`). The item is written in the same
 * transaction as the change it answers for, so a stored response exists exactly when the change was
 * made. DynamoDB's TTL removes it after `ttl`; since TTL deletion lags (up to days), an expired item is
 * treated as absent on read and may be overwritten.
 */
import { getItem } from '#lib/store/db/read';
import { planOf } from '#lib/store/db/prefetch';
import { TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { recordReader } from '#lib/store/db/codec';
import { storedIdempotency } from '#schemas/stored/ballot';
import { type TransactItem } from '#lib/store/db/transact';

export interface IdempotencyRecord {
  /** Hash of the request the key was first used with: the same key with another request is refused. */
  requestHash: string;
  /** What the domain needs to rebuild the first response. */
  response: unknown;
  createdAt: string;
  /** Expiry, epoch seconds (the table's TTL attribute). */
  ttl: number;
}

const idempotencyOf = recordReader('idempotency record', storedIdempotency);

const epochSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

const keysOfRecord = (siteId: number, scope: string, key: string) => [ballotKeys.idempotency(siteId, scope, key)];

/** The live stored answer of a key, read consistently (`.plan`: read ahead by a vote round). */
export const getIdempotencyRecord = Object.assign(
  async (siteId: number, scope: string, key: string, now: Date): Promise<IdempotencyRecord | undefined> => {
    const [itemKey] = keysOfRecord(siteId, scope, key);
    const stored = await getItem(itemKey!, { consistent: true });
    const item = stored ? idempotencyOf(stored) : undefined;
    if (!item || item.ttl <= epochSeconds(now)) return undefined;
    return { requestHash: item.requestHash, response: item.response, createdAt: item.createdAt, ttl: item.ttl };
  },
  { plan: planOf(keysOfRecord) },
);

/** The transaction item storing a response; it fails when a live record for the key exists already. */
export function idempotencyPutItem(
  siteId: number,
  scope: string,
  key: string,
  record: Omit<IdempotencyRecord, 'ttl'>,
  ttlSeconds: number,
  now: Date,
): TransactItem {
  const nowSeconds = epochSeconds(now);
  return {
    Put: {
      TableName: TABLE,
      Item: { ...ballotKeys.idempotency(siteId, scope, key), ...record, ttl: nowSeconds + ttlSeconds },
      ConditionExpression: 'attribute_not_exists(PK) OR #ttl <= :now',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':now': nowSeconds },
    },
  };
}
