/** Ids made from time: ascending within a process whatever the clock does, 16 digits, keys sort as ids. User ids drawn at random: 12 digits, keys after counter ids. */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  COUNTER_IDS_BELOW,
  FIRST_TIMED_ID,
  DRAWN_USER_IDS,
  FIRST_DRAWN_USER_ID,
  ID_EPOCH,
  IdTaken,
  idSource,
  LAST_ID_TIME,
  makeIdSource,
  newId,
  newIds,
  TAIL,
  timedId,
  timeOfId,
  userIdSource,
  withNewId,
  withNewUserId,
} from '#lib/store/db/ids';
import { pad } from '#lib/store/db/keys';
import { REPLAN_ATTEMPTS } from '#lib/store/db/replan';
import { isApiError } from '#lib/errors';
import { logger } from '#lib/log/logger';
import { idRuns } from '#lib/store/arguments/id-runs';

const real = { clock: idSource.clock, tail: idSource.tail };
const realDraw = userIdSource.draw;
afterEach(() => {
  Object.assign(idSource, real);
  userIdSource.draw = realDraw;
});

const time = fc.integer({ min: ID_EPOCH, max: LAST_ID_TIME });
const tail = fc.integer({ min: 0, max: TAIL - 1 });

describe('timed ids', () => {
  it('any clock (steps back, repeats, jumps) and any tails: strictly ascending, 16-digit safe integers', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(time, tail), { minLength: 1, maxLength: 60 }), (steps) => {
        idSource.last = 0;
        const ids = steps.map(([ms, t]) => {
          Object.assign(idSource, { clock: () => ms, tail: () => t });
          return newId();
        });
        for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
        for (const id of ids) {
          expect(Number.isSafeInteger(id)).toBe(true);
          expect(String(id)).toHaveLength(16);
        }
      }),
      { seed: 26, numRuns: 300 },
    );
  });

  it('the millisecond is the order: a later millisecond gives a larger id whatever the tails, and timeOfId gives it back', () => {
    fc.assert(
      fc.property(time, time, tail, tail, (a, b, ta, tb) => {
        if (a < b) expect(timedId(a, ta)).toBeLessThan(timedId(b, tb));
        expect(timeOfId(timedId(a, ta))).toBe(a);
      }),
      { seed: 53, numRuns: 500 },
    );
    expect(() => timedId(ID_EPOCH - 1, 0)).toThrow(RangeError);
    expect(() => timedId(LAST_ID_TIME + 1, 0)).toThrow(RangeError);
    expect(timedId(LAST_ID_TIME, TAIL - 1)).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    expect(timeOfId(COUNTER_IDS_BELOW - 1)).toBeUndefined();
  });

  it('keys sort as the ids do: counter ids (below 10^9) before timed ids, timed ids among themselves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: COUNTER_IDS_BELOW - 1 }), time, tail, time, tail, (old, a, ta, b, tb) => {
        const ids = [old, timedId(a, ta), timedId(b, tb)];
        const byKey = [...ids].sort((x, y) => (pad(x) < pad(y) ? -1 : pad(x) > pad(y) ? 1 : 0));
        expect(byKey).toEqual([...ids].sort((x, y) => x - y));
      }),
      { seed: 15, numRuns: 500 },
    );
    expect(FIRST_TIMED_ID).toBe(10 ** 15);
  });

  it('a block of ids for seeding is consecutive and above every id before it', () => {
    const before = newId();
    const block = newIds(5);
    expect(block[0]).toBeGreaterThan(before);
    expect(block).toEqual(block.map((_, i) => block[0]! + i));
    expect(newId()).toBeGreaterThan(block[4]!);
  });

  it('one range read spans a block of ids made together, not ids made by separate creates', () => {
    const ms = Date.now();
    expect(idRuns([timedId(ms, 5), timedId(ms, 9), timedId(ms + 1, 5)])).toEqual([
      { from: timedId(ms, 5), to: timedId(ms, 9) },
      { from: timedId(ms + 1, 5), to: timedId(ms + 1, 5) },
    ]);
    expect(idRuns([10, 14, 40])).toEqual([{ from: 10, to: 14 }, { from: 40, to: 40 }]);
  });

  it('concurrent processes on one clock: every create stores exactly one item, no two share an id, each process ascends', async () => {
    // Several processes (each its own source) create at once against a store whose write is conditional
    // on the key being free, as every create's write is. The clock takes few distinct milliseconds and
    // the tails few values, so ids meet often: the condition, not luck, keeps them apart. (A tail that
    // never changes is no random tail: two such processes would chase each other's lane forever.)
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 8 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 2, maxLength: 8 }),
        async (processes, perProcess, clockSteps, tails) => {
          const stored = new Map<number, string>();
          const start = Date.now();
          const sources = Array.from({ length: processes }, (_, p) => {
            let c = p;
            let t = p;
            return makeIdSource(
              () => start + clockSteps[c++ % clockSteps.length]!,
              () => tails[t++ % tails.length]!,
            );
          });
          const put = async (id: number, what: string): Promise<number> => {
            await Promise.resolve();
            if (stored.has(id)) throw new IdTaken(id);
            stored.set(id, what);
            return id;
          };
          const made = await Promise.all(
            sources.map(async (source, p) => {
              const ids: number[] = [];
              for (let i = 0; i < perProcess; i++) ids.push(await withNewId((id) => put(id, `${p}/${i}`), source));
              return ids;
            }),
          );
          expect(stored.size).toBe(processes * perProcess);
          expect(new Set(made.flat()).size).toBe(processes * perProcess);
          for (const [p, ids] of made.entries()) {
            ids.forEach((id, i) => expect(stored.get(id)).toBe(`${p}/${i}`));
            expect(ids).toEqual([...ids].sort((a, b) => a - b));
          }
        },
      ),
      { seed: 4, numRuns: 40 },
    );
  });
});

const drawn = fc.integer({ min: 0, max: DRAWN_USER_IDS - 1 });
const byKey = (ids: number[]) => [...ids].sort((x, y) => (pad(x) < pad(y) ? -1 : pad(x) > pad(y) ? 1 : 0));

describe('drawn user ids', () => {
  it('are 12-digit safe integers from 10^11, spread over the whole range', () => {
    const ids = Array.from({ length: 2000 }, () => userIdSource.next());
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(FIRST_DRAWN_USER_ID);
      expect(id).toBeLessThan(FIRST_DRAWN_USER_ID + DRAWN_USER_IDS);
      expect(String(id)).toHaveLength(12);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Drawn, not counted or timed: consecutive ids are in no order and fill the range's both halves.
    const ascending = ids.slice(1).filter((id, i) => id > ids[i]!).length;
    expect(ascending).toBeGreaterThan(800);
    expect(ascending).toBeLessThan(1200);
    expect(ids.filter((id) => id < FIRST_DRAWN_USER_ID + DRAWN_USER_IDS / 2).length).toBeGreaterThan(800);
    expect(ids.filter((id) => id >= FIRST_DRAWN_USER_ID + DRAWN_USER_IDS / 2).length).toBeGreaterThan(800);
  });

  it('keys sort as the ids do: counter user ids (below 10^9) before drawn user ids, drawn ones among themselves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: COUNTER_IDS_BELOW - 1 }), drawn, drawn, (old, a, b) => {
        const ids = [old, FIRST_DRAWN_USER_ID + a, FIRST_DRAWN_USER_ID + b];
        expect(byKey(ids)).toEqual([...ids].sort((x, y) => x - y));
      }),
      { seed: 12, numRuns: 500 },
    );
    expect(FIRST_DRAWN_USER_ID).toBe(10 ** 11);
    const last = FIRST_DRAWN_USER_ID + DRAWN_USER_IDS - 1;
    expect(String(last)).toHaveLength(12);
    expect(byKey([last, FIRST_DRAWN_USER_ID, COUNTER_IDS_BELOW - 1])).toEqual([COUNTER_IDS_BELOW - 1, FIRST_DRAWN_USER_ID, last]);
  });

  it('a taken user id (another process drew it first) is replaced by another draw', async () => {
    const draws = [7, 7, 123_456];
    userIdSource.draw = () => draws.shift()!;
    const taken = FIRST_DRAWN_USER_ID + 7;
    const tried: number[] = [];
    const id = await withNewUserId(async (id) => {
      tried.push(id);
      if (id === taken) throw new IdTaken(id);
      return id;
    });
    expect(tried).toEqual([taken, taken, FIRST_DRAWN_USER_ID + 123_456]);
    expect(id).toBe(FIRST_DRAWN_USER_ID + 123_456);
  });
});

describe('a source whose every id is taken (a broken source of randomness, or a used-up space)', () => {
  /** What `make` throws (after the re-plan's real pauses: a few seconds at most). */
  const failureOf = (make: () => Promise<unknown>): Promise<unknown> =>
    make().then(
      () => undefined,
      (err: unknown) => err,
    );

  const alwaysTaken = async (id: number): Promise<number> => {
    throw new IdTaken(id);
  };

  it('a create answers 503 ServiceUnavailable with Retry-After after its tries, and logs an error', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    try {
      const tried: number[] = [];
      const stuck = { next: () => 42, skip: () => {} };
      const err = await failureOf(() => withNewId((id) => (tried.push(id), alwaysTaken(id)), stuck));
      expect(tried).toHaveLength(REPLAN_ATTEMPTS);
      expect(isApiError(err) && { status: err.status, error: err.error, headers: err.headers }).toEqual({
        status: 503,
        error: 'ServiceUnavailable',
        headers: { 'retry-after': '1' },
      });
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
  });

  it('so does a user create whose every draw is taken', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    try {
      userIdSource.draw = () => 7;
      const err = await failureOf(() => withNewUserId(alwaysTaken));
      expect(isApiError(err) && err.status).toBe(503);
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
  });
});
