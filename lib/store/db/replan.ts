/**
 * The one optimistic loop of the code base: read, decide, write on the condition that what was read is
 * still there; when another writer got there first, read and decide again. Every re-planning caller
 * (a vote round, an edit, an anonymization, a tag removal, an id that was taken) runs through
 * `withReplan`, with the same cap and the same jittered pause, so concurrent writers spread out
 * instead of colliding again in lockstep. Transient failures (throttling, transaction conflicts, lost
 * connections) are not this loop's business: the store's retry policy resends those (retry.ts).
 */
import { jitteredDelayMs } from '#lib/store/db/retry';

/** Attempts in all, the first included; then the caller's own error (a 409 with its words). */
export const REPLAN_ATTEMPTS = 8;

/** What a step answers when its write found the state changed since it read it: plan again. */
export const REPLAN: unique symbol = Symbol('replan');
export type Replan = typeof REPLAN;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, jitteredDelayMs(attempt)));

/**
 * Runs `step` (attempt 1, 2, ...) until it answers something other than REPLAN, pausing a jittered
 * while before each new attempt; after REPLAN_ATTEMPTS attempts throws what `gaveUp` makes.
 */
export async function withReplan<T>(step: (attempt: number) => Promise<T | Replan>, gaveUp: () => Error): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const result = await step(attempt);
    if (result !== REPLAN) return result;
    if (attempt >= REPLAN_ATTEMPTS) throw gaveUp();
    await pause(attempt);
  }
}
