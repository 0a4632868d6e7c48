/**
 * The retired id counters: one item per type (`PK=COUNTER, SK=<type>`) whose value is the highest id
 * of that type handed out before ids were made from time (lib/store/db/ids.ts). No create writes them
 * any more but a user's (`nextUserId` below); an import's id reservation reads them and raises them
 * (lib/store/imports/reservations.ts), so that the ids an import keeps never meet an id of this
 * deployment or of another import.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { recordReader } from '#lib/store/db/codec';
import type { Key } from '#lib/store/db/keys';
import { update } from '#lib/store/db/update';
import { storedIdCounter } from '#schemas/stored/counters';

/** The counter item of one id type. */
export const counterKey = (type: CounterType): Key => ({ PK: 'COUNTER', SK: type });

/** The types whose ids an import may keep. */
export type CounterType = 'site' | 'idea' | 'article' | 'argument' | 'user' | 'signup' | 'tag';

/** What the ADD returns (UPDATED_NEW): the counter's new value. */
const readCounter = recordReader('id counter', storedIdCounter);

/**
 * A new user id, still from the `user` counter: a vote's id is made from its voter's id and the
 * voter's vote count (lib/votes/ids.ts), which needs user ids far below the 16 digits of a timed id.
 * A user is created once per person and site (a first login), not on every create.
 */
export const nextUserId = (): Promise<number> => nextUserIds(1);

/** `count` consecutive user ids (for seeding); returns the first. */
export async function nextUserIds(count: number): Promise<number> {
  const out = await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: counterKey('user'),
      ...update({ add: { value: count } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return readCounter(out.Attributes ?? {}).value - count + 1;
}
