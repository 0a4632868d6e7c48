/**
 * Ids kept from another system (the OpenStad import). Ids here come from one counter per type and are
 * unique across the service (lib/store/counters.ts), so an imported record may keep its id only when
 * this deployment never handed that id out. On its first run an import of one source records, per type,
 * the counter's value at that moment (`floor`) and raises the counter to the source's highest id, both
 * in ONE transaction: ids above the floor up to that maximum belong to the import, ids at or below it
 * may already be taken. Reruns read the same floors, so a resumed or repeated import decides alike.
 *
 * The reservation item (keys.importReservation): `{ floors: {type: n}, ceilings: {type: n}, reservedAt }`.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys } from '#lib/store/keys';
import { batchGet } from '#lib/store/batch';
import { failedConditions } from '#lib/store/failures';
import type { CounterType } from '#lib/store/counters';

export interface ImportReservation {
  floors: Partial<Record<CounterType, number>>;
  ceilings: Partial<Record<CounterType, number>>;
  reservedAt: string;
}

const reservationKey = keys.importReservation;

async function readReservation(source: string): Promise<ImportReservation | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: reservationKey(source), ConsistentRead: true }));
  return out.Item as ImportReservation | undefined;
}

/**
 * The reservation of `source` (created on the first call): which ids of each type the import may keep.
 * `ceilings`: the source's highest id per type.
 */
export async function reserveImportIds(source: string, ceilings: Partial<Record<CounterType, number>>, now = new Date()): Promise<ImportReservation> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const existing = await readReservation(source);
    if (existing) return existing;
    const types = Object.keys(ceilings) as CounterType[];
    const counters = await batchGet<Record<string, unknown>>(types.map((t) => keys.counter(t)), { consistentRead: true });
    const floors: Partial<Record<CounterType, number>> = {};
    for (const type of types) {
      const item = counters.find((c) => c['SK'] === type);
      floors[type] = typeof item?.['value'] === 'number' ? item['value'] : 0;
    }
    const reservation: ImportReservation = { floors, ceilings, reservedAt: now.toISOString() };
    const raises = types.filter((t) => (ceilings[t] ?? 0) > (floors[t] ?? 0));
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: TABLE, Item: { ...reservationKey(source), ...reservation }, ConditionExpression: 'attribute_not_exists(PK)' } },
            ...raises.map((type) => ({
              Update: {
                TableName: TABLE,
                Key: keys.counter(type),
                UpdateExpression: 'SET #v = :max',
                // Unchanged since it was read: no id was handed out between the floor and the raise.
                ConditionExpression: floors[type] === 0 ? 'attribute_not_exists(#v) OR #v = :zero' : '#v = :floor',
                ExpressionAttributeNames: { '#v': 'value' },
                ExpressionAttributeValues: floors[type] === 0 ? { ':max': ceilings[type], ':zero': 0 } : { ':max': ceilings[type], ':floor': floors[type] },
              },
            })),
          ],
        }),
      );
      return reservation;
    } catch (err) {
      if (!failedConditions(err)) throw err;
      // A counter moved (a create meanwhile) or another run reserved first: read again.
    }
  }
  throw new Error(`could not reserve the ids of import ${source}: the id counters kept changing`);
}

/** May a record of `type` keep `id` under this reservation? */
export const mayKeepId = (reservation: ImportReservation, type: CounterType, id: number): boolean =>
  id > (reservation.floors[type] ?? 0) && id <= (reservation.ceilings[type] ?? 0);
