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
import { serviceUnavailable } from '#lib/errors';
import { logger } from '#lib/log/logger';
import { REPLAN, REPLAN_ATTEMPTS, type Replan, withReplan } from '#lib/store/db/replan';
import { RETRY_POLICY } from '#lib/store/db/retry';

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

/** A maker of ids for `withNewId`: the next id to try, and what to do once one was taken. */
interface IdMaker {
  next(): number;
  skip(): void;
}

/** One process's maker of timed ids: its clock, its random tail, and the last id it made. */
interface IdSource extends IdMaker {
  clock: () => number;
  tail: () => number;
  last: number;
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
  skip(): void {
    // The other process's next ids in this millisecond are the integers after the one it took: up to
    // a millisecond's worth of ids further on, at random.
    this.last += 1 + randomInt(TAIL);
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
export async function replanIfIdTaken<T>(write: () => Promise<T>, source: IdMaker): Promise<T | Replan> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof IdTaken)) throw err;
    source.skip();
    return REPLAN;
  }
}

/**
 * What a create answers when every id it tried was taken: 503 with `Retry-After`, the answer of a
 * store that cannot serve the request now (retry.ts), not a 500. It takes a broken clock or source of
 * randomness, or a space of ids used up, never bad luck, so it is logged as an error for an operator.
 */
export function noFreeId(): Error {
  logger.error('every new id tried was taken: the id source is broken or its ids are used up', { tries: REPLAN_ATTEMPTS });
  return serviceUnavailable('No new id could be made; please retry shortly', RETRY_POLICY.retryAfterSeconds);
}

/**
 * Runs a create with a new id; when its store write answers `IdTaken`, again with another id. After
 * REPLAN_ATTEMPTS collisions in a row, `noFreeId`.
 */
export function withNewId<T>(create: (id: number) => Promise<T>, source: IdMaker = idSource): Promise<T> {
  return withReplan(() => replanIfIdTaken(() => create(source.next()), source), noFreeId);
}

/**
 * User ids without a counter, drawn at random:
 *
 *   FIRST_DRAWN_USER_ID + r      (r uniform in [0, DRAWN_USER_IDS))
 *
 * Why drawn, not timed like other ids: a vote's id is made from its voter's id and the voter's vote
 * count (lib/votes/ids.ts) in a permutation of [0, 2^52), which leaves each kind of user id about
 * 2^37.6 values. Timed ids in so few values are either coarse or few per unit (to the second, 64 ids a
 * second for every site of the deployment together: one city's launch would make every other city's
 * first logins fail), and a user id is public (ideas and arguments carry it), so a timed one would show
 * when its user signed up, which CONTRACT rules out for every id a reader sees. A drawn id:
 * - is 12 digits (from 10^11; the retired `user` counter and the ids an import keeps stay below 10^9),
 *   so padded keys sort as the numbers do, after every counter id; users listed by id are in no order
 *   of time;
 * - says nothing of its user: not when they signed up, not how many users there are;
 * - has no rate: a draw meets a taken id only with the chance (users so far) / DRAWN_USER_IDS, one in
 *   200,000 with a million users, whatever the rate of creates;
 * - is unique across the deployment, not only on a site: a user's id names their GSI1 partition
 *   (`USER#<u>`, what they own, read by activity and anonymization), so the user's write also puts
 *   the id's own claim item (lib/store/users/users.ts), conditioned on its absence. A claim is one
 *   small item per user, written once, never shared, never removed (an id is never drawn twice). A
 *   taken id is `IdTaken`, and the create runs again with another draw (`withNewUserId`, or the
 *   login's own loop with `replanIfIdTaken`).
 */
export const FIRST_DRAWN_USER_ID = 1e11;
/** How many drawn user ids there are (3 * 2^36): what a vote id's permutation has room for. */
export const DRAWN_USER_IDS = 3 * 2 ** 36;

/** This process's user ids (a test may replace `draw` to stage a collision). */
export const userIdSource: IdMaker & { draw: () => number } = {
  draw: () => randomInt(DRAWN_USER_IDS),
  next() {
    return FIRST_DRAWN_USER_ID + this.draw();
  },
  // Every draw is independent of the taken one: nothing to move off.
  skip() {},
};

/** Runs a user create with a new user id, again with another when that id was taken. */
export const withNewUserId = <T>(create: (id: number) => Promise<T>): Promise<T> => withNewId(create, userIdSource);
