/**
 * Ids: positive integers from one atomic counter per resource type, unique across the service.
 * `ADD` on a single item is atomic, so concurrent creates never get the same id.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { recordReader } from '#lib/store/db/codec';
import { storedIdCounter } from '#schemas/stored/counters';
import { takeReservedId, type IdReservation } from '#lib/store/db/prefetch';
import type { Key } from '#lib/store/db/keys';
import { update } from '#lib/store/db/update';

/** What the ADD returns (UPDATED_NEW): the counter's new value. */
const readCounter = recordReader('id counter', storedIdCounter);

/** The counter item of one id type. */
export const counterKey = (type: string): Key => ({ PK: 'COUNTER', SK: type });

export type CounterType = 'site' | 'idea' | 'article' | 'argument' | 'user' | 'signup' | 'notification' | 'tag' | 'checkpoint';

/** Reserves `count` consecutive ids and returns the first. */
export async function nextIds(type: CounterType, count = 1): Promise<number> {
  const out = await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: counterKey(type),
      ...update({ add: { value: count } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = readCounter(out.Attributes ?? {}).value;
  return last - count + 1;
}

/** For a route's read plan (`newId`): one id of `type`, reserved beside the request's first read. */
export const reserveIdAhead = (type: CounterType): IdReservation => ({ type, reserve: () => nextIds(type, 1) });

/**
 * One new id: the one this request reserved ahead (lib/store/db/prefetch.ts `newId`; its error when that
 * ADD failed), else from the counter.
 */
export const nextId = async (type: CounterType): Promise<number> => takeReservedId(type) ?? nextIds(type, 1);
