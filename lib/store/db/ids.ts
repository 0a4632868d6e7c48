/**
 * New ids without a shared item: an id is the time of its creation and a random tail,
 *
 *   FIRST_TIMED_ID + (milliseconds since ID_EPOCH) * TAIL + tail      (tail random in [0, TAIL))
 *
 * so no create of any site writes an item that the creates of other sites (or of the same site) also
 * write, and creating needs no request of its own. Properties:
 * - positive safe integers of exactly 16 digits, in [10^15, 2^53): their zero-padded keys (keys.ts
 *   `pad`) sort as the numbers do, and after every id the retired per-type counters handed out (those
 *   stayed below 10^9, ten digits padded with a leading zero);
 * - creation order is key order: across processes to the millisecond; within one process strictly, as
 *   each id is above the one before (a clock that steps back, or two creates in one millisecond, take
 *   the next integer);
 * - uniqueness is checked, not assumed: every create writes its item on the condition that the key is
 *   free (DESIGN habit 8). Two processes that pick the same millisecond and tail (1 in 2,048 for two
 *   creates in one millisecond) collide on that condition; the store answers `IdTaken` before anything
 *   is written, and `withNewId` runs the create again with a fresh id (withReplan's cap and pause).
 * The tail covers 124 years of milliseconds from ID_EPOCH before the ids leave the safe integers.
 */
import { randomInt } from 'node:crypto';
import { REPLAN, withReplan } from '#lib/store/db/replan';

/** Every id of the retired counters, and every id an import keeps, is below this (ten padded digits, a leading zero). */
export const COUNTER_IDS_BELOW = 1e9;
/** The first 16-digit number: above every counter id. */
export const FIRST_TIMED_ID = 1e15;
/** Ids a millisecond holds. */
export const TAIL = 2048;
/** The millisecond of FIRST_TIMED_ID. */
export const ID_EPOCH = Date.UTC(2025, 0, 1);
/** The last millisecond with ids below 2^53. */
export const LAST_ID_TIME = ID_EPOCH + Math.floor((Number.MAX_SAFE_INTEGER - FIRST_TIMED_ID) / TAIL) - 1;

/** The id of millisecond `ms` with `tail`. */
export function timedId(ms: number, tail: number): number {
  if (ms < ID_EPOCH || ms > LAST_ID_TIME) throw new RangeError(`no ids for the time ${new Date(ms).toISOString()}`);
  return FIRST_TIMED_ID + (ms - ID_EPOCH) * TAIL + tail;
}

/** The millisecond an id was made in (undefined for an id of the retired counters). */
export const timeOfId = (id: number): number | undefined => (id >= FIRST_TIMED_ID ? ID_EPOCH + Math.floor((id - FIRST_TIMED_ID) / TAIL) : undefined);

/** One process's maker of ids: its clock, its random tail, and the last id it made. */
interface IdSource {
  clock: () => number;
  tail: () => number;
  last: number;
  next(): number;
}

/** A maker of ids whose every id is above the one it made before. */
export const makeIdSource = (clock: () => number, tail: () => number): IdSource => ({
  clock,
  tail,
  last: 0,
  next(): number {
    const candidate = timedId(this.clock(), this.tail());
    this.last = candidate > this.last ? candidate : this.last + 1;
    return this.last;
  },
});

/** This process's ids: the clock and a random tail (a test may replace either to stage a collision). */
export const idSource = makeIdSource(
  () => Date.now(),
  () => randomInt(TAIL),
);

/** One new id, above every id this process made before. */
export const newId = (): number => idSource.next();

/** `count` consecutive new ids, ascending (a block for seeding: its first id, then the next integers). */
export function newIds(count: number): number[] {
  const first = newId();
  idSource.last = first + count - 1;
  return Array.from({ length: count }, (_, i) => first + i);
}

/** A create's own item was there already: its id was taken (nothing was written). */
export class IdTaken extends Error {
  constructor(id: number) {
    super(`id ${id} is taken`);
    this.name = 'IdTaken';
  }
}

/**
 * Runs a create with a new id; when its store write answers `IdTaken`, again with another id. Throws
 * after REPLAN_ATTEMPTS collisions in a row, which takes a broken clock or tail, not bad luck.
 */
export function withNewId<T>(create: (id: number) => Promise<T>, source: IdSource = idSource): Promise<T> {
  return withReplan(
    async () => {
      try {
        return await create(source.next());
      } catch (err) {
        if (!(err instanceof IdTaken)) throw err;
        // Off the other process's lane (its next ids in this millisecond are the integers after the
        // one it took): up to a millisecond's worth of ids further on, at random.
        source.last += 1 + randomInt(TAIL);
        return REPLAN;
      }
    },
    () => new Error('every new id tried was taken'),
  );
}
