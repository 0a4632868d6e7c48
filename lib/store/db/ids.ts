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
import { REPLAN, type Replan, withReplan } from '#lib/store/db/replan';

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
  /** After `IdTaken`: moves off the lane of the process that took the id. */
  skip(): void;
}

/**
 * A maker of ids whose every id is above the one it made before: `idAt(time, tail)` with tails below
 * `tails` (the ids one time unit holds).
 */
export const makeIdSource = (clock: () => number, tail: () => number, idAt: (ms: number, tail: number) => number = timedId, tails = TAIL): IdSource => ({
  clock,
  tail,
  last: 0,
  next(): number {
    const candidate = idAt(this.clock(), this.tail());
    this.last = candidate > this.last ? candidate : this.last + 1;
    return this.last;
  },
  skip(): void {
    // The other process's next ids in this time unit are the integers after the one it took: up to a
    // unit's worth of ids further on, at random.
    this.last += 1 + randomInt(tails);
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
 * What a create's attempt answers when its write found its id taken: REPLAN, with `source` moved off
 * the other process's lane, so that the next attempt (withReplan's) takes another id. For a create
 * that already runs its own re-plan loop (a first login), so that one loop and one cap cover both.
 */
export async function replanIfIdTaken<T>(write: () => Promise<T>, source: IdSource): Promise<T | Replan> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof IdTaken)) throw err;
    source.skip();
    return REPLAN;
  }
}

/**
 * Runs a create with a new id; when its store write answers `IdTaken`, again with another id. Throws
 * after REPLAN_ATTEMPTS collisions in a row, which takes a broken clock or tail, not bad luck.
 */
export function withNewId<T>(create: (id: number) => Promise<T>, source: IdSource = idSource): Promise<T> {
  return withReplan(
    () => replanIfIdTaken(() => create(source.next()), source),
    () => new Error('every new id tried was taken'),
  );
}

/**
 * User ids without a counter. A vote's id is made from its voter's id and the voter's vote count
 * (lib/votes/ids.ts) in a permutation of [0, 2^52), which leaves no room for 16-digit user ids. So a
 * user id is timed to the second, with a smaller tail:
 *
 *   FIRST_TIMED_USER_ID + (whole seconds since ID_EPOCH) * USER_TAIL + tail   (tail random in [0, USER_TAIL))
 *
 * - 12 digits from 10^11 on (the retired `user` counter and the ids an import keeps stay below 10^9):
 *   every one has the same number of digits, so their padded keys sort as the numbers do, after
 *   every counter id (a leading 0 when padded), as timed ids of other types do;
 * - creation order is key order across processes to the second, and strictly within a process;
 * - TIMED_USER_IDS of them (3 * 2^36): vote ids give each one 2^14 inputs of the permutation above the
 *   2^50 that the counter users' inputs take. With 64 tails a second they last 102 years from
 *   ID_EPOCH (to 2127); 32 tails would last twice as long but make two first logins in one second
 *   meet twice as often (1 in 32), and each meeting costs a refused write;
 * - unique across the deployment, not only on a site: a user's id names their GSI1 partition
 *   (`USER#<u>`, what they own, read by activity and anonymization), so the user's write also puts
 *   the id's own claim item (lib/store/users/users.ts), conditioned on its absence. A claim is one
 *   small item per user, written once, never shared. A taken id is `IdTaken`, and the create runs
 *   again with another id (`withNewUserId`, or the login's own loop with `replanIfIdTaken`).
 */
export const FIRST_TIMED_USER_ID = 1e11;
/** User ids a second holds. */
export const USER_TAIL = 64;
/** How many timed user ids there are: what a vote id's permutation has room for. */
export const TIMED_USER_IDS = 3 * 2 ** 36;
/** The last second with user ids (in milliseconds since 1970). */
export const LAST_USER_ID_TIME = ID_EPOCH + (TIMED_USER_IDS / USER_TAIL) * 1000 - 1;

/** The user id of millisecond `ms` (counted to the whole second) with `tail`. */
export function timedUserId(ms: number, tail: number): number {
  if (ms < ID_EPOCH || ms > LAST_USER_ID_TIME) throw new RangeError(`no user ids for the time ${new Date(ms).toISOString()}`);
  return FIRST_TIMED_USER_ID + Math.floor((ms - ID_EPOCH) / 1000) * USER_TAIL + tail;
}

/** This process's user ids (a test may replace the clock or the tail to stage a collision). */
export const userIdSource = makeIdSource(
  () => Date.now(),
  () => randomInt(USER_TAIL),
  timedUserId,
  USER_TAIL,
);


/** Runs a user create with a new user id, again with another when that id was taken. */
export const withNewUserId = <T>(create: (id: number) => Promise<T>): Promise<T> => withNewId(create, userIdSource);
