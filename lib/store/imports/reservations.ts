/**
 * Ids kept from another system (the OpenStad import). New ids are made from time and lie at or above
 * 10^15 (user ids: 10^11, lib/store/db/ids.ts); below them are the ids the retired per-type counters handed out
 * (lib/store/db/counters.ts), up to each counter's value. So an imported record may keep its id only
 * when that id is below COUNTER_IDS_BELOW and above what the counter (and earlier imports) took. On
 * its first run an import of one source records, per type, the counter's value at that moment
 * (`floor`) and raises the counter to the source's highest id below COUNTER_IDS_BELOW, both in ONE
 * transaction: ids above the floor up to that maximum belong to the import, ids at or below it may
 * already be taken, and a later import of another source starts above it. A source id at or above
 * COUNTER_IDS_BELOW is never kept, so it raises nothing: were it the ceiling, every later import's
 * floor would lie above every id it may keep. Reruns read the same floors, so a resumed or repeated
 * import decides alike.
 *
 * The reservation item (importKeys.importReservation): `{ floors: {type: n}, ceilings: {type: n}, reservedAt }`.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { importKeys } from '#lib/store/imports/keys';
import { batchGet } from '#lib/store/db/batch';
import { failedConditions } from '#lib/store/db/failures';
import { counterKey, type CounterType } from '#lib/store/db/counters';
import { update, withCondition } from '#lib/store/db/update';
import { transact } from '#lib/store/db/transact';
import { COUNTER_IDS_BELOW } from '#lib/store/db/ids';
import { REPLAN, withReplan, type Replan } from '#lib/store/db/replan';

export interface ImportReservation {
  floors: Partial<Record<CounterType, number>>;
  ceilings: Partial<Record<CounterType, number>>;
  reservedAt: string;
}

const reservationKey = importKeys.importReservation;

async function readReservation(source: string): Promise<ImportReservation | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: reservationKey(source), ConsistentRead: true }));
  return out.Item as ImportReservation | undefined;
}

/**
 * The reservation of `source` (created on the first call): which ids of each type the import may keep.
 * `ceilings`: the source's highest id per type among those it may keep (below COUNTER_IDS_BELOW).
 */
export async function reserveImportIds(source: string, ceilings: Partial<Record<CounterType, number>>, now = new Date()): Promise<ImportReservation> {
  for (const [type, ceiling] of Object.entries(ceilings)) {
    if ((ceiling ?? 0) >= COUNTER_IDS_BELOW) throw new RangeError(`the ${type} ceiling ${ceiling} is not an id an import may keep (below ${COUNTER_IDS_BELOW})`);
  }
  return withReplan(async (): Promise<ImportReservation | Replan> => {
    const existing = await readReservation(source);
    if (existing) return existing;
    const types = Object.keys(ceilings) as CounterType[];
    const counters = await batchGet<Record<string, unknown>>(types.map((t) => counterKey(t)), { consistentRead: true });
    const floors: Partial<Record<CounterType, number>> = {};
    for (const type of types) {
      const item = counters.find((c) => c['SK'] === type);
      floors[type] = typeof item?.['value'] === 'number' ? item['value'] : 0;
    }
    const reservation: ImportReservation = { floors, ceilings, reservedAt: now.toISOString() };
    const raises = types.filter((t) => (ceilings[t] ?? 0) > (floors[t] ?? 0));
    try {
      await transact([
        { Put: { TableName: TABLE, Item: { ...reservationKey(source), ...reservation }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ...raises.map((type) => ({
          Update: {
            TableName: TABLE,
            Key: counterKey(type),
            // Unchanged since it was read: no id was handed out between the floor and the raise.
            ...withCondition(update({ set: { value: ceilings[type] } }), {
              expression: floors[type] === 0 ? 'attribute_not_exists(#v) OR #v = :zero' : '#v = :floor',
              names: { '#v': 'value' },
              values: floors[type] === 0 ? { ':zero': 0 } : { ':floor': floors[type] },
            }),
          },
        })),
      ]);
      return reservation;
    } catch (err) {
      if (!failedConditions(err)) throw err;
      // A counter moved (a create meanwhile) or another run reserved first: read again.
      return REPLAN;
    }
  }, () => new Error(`could not reserve the ids of import ${source}: the id counters kept changing`));
}

/** May a record of `type` keep `id` under this reservation? */
export const mayKeepId = (reservation: ImportReservation, type: CounterType, id: number): boolean =>
  id > (reservation.floors[type] ?? 0) && id <= (reservation.ceilings[type] ?? 0) && id < COUNTER_IDS_BELOW;
