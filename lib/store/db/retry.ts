/**
 * The one retry policy of the store (DESIGN habit 13), installed on the shared client as an SDK
 * middleware (lib/store/db/client.ts), so every request of every access pattern gets it and none writes
 * its own loop for transient failures:
 *
 *   conflict, throttled, connection (lib/store/db/failures.ts)  ->  sent again after a full-jitter pause
 *   (random between 0 and min(CAP, BASE * 2^attempt)), at most MAX_ATTEMPTS times in all;
 *   still failing  ->  a lost race is 409 Conflict, throttling or a lost connection 503
 *   ServiceUnavailable with `Retry-After` (CONTRACT); never a 500.
 *
 * Sending the same request again is safe for what is retried: a cancelled transaction or a throttled
 * request wrote nothing, and TransactWriteItems carries the SDK's ClientRequestToken, so a transaction
 * whose answer was lost is not applied twice. The SDK's own retries are off (maxAttempts 1), so the two
 * policies never multiply. Condition failures are the caller's business and pass through untouched.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { conflict, serviceUnavailable } from '#lib/errors';
import { classifyFailure, isTransient } from '#lib/store/db/failures';

export const RETRY_POLICY = {
  /** Attempts in all, the first included. */
  maxAttempts: 6,
  baseDelayMs: 25,
  capDelayMs: 800,
  /** What a client is told to wait when DynamoDB kept refusing (seconds). */
  retryAfterSeconds: 1,
} as const;

/** Full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"): racing writers spread out. */
export const jitteredDelayMs = (attempt: number, random: () => number = Math.random): number =>
  random() * Math.min(RETRY_POLICY.capDelayMs, RETRY_POLICY.baseDelayMs * 2 ** attempt);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** 503 with `Retry-After`: DynamoDB kept throttling (or could not be reached) through the retries. */
export const stillBusy = (): Error => serviceUnavailable('The database is busy; please retry shortly', RETRY_POLICY.retryAfterSeconds);

/** The answer a client gets for a transient failure that outlived the retries. */
function exhausted(err: unknown): Error {
  const failure = classifyFailure(err);
  if (failure.kind === 'conflict') return conflict('The data was being changed by another request at the same time; please retry');
  if (failure.kind === 'throttled' || failure.kind === 'connection') return stillBusy();
  return err as Error;
}

const RETRY_MIDDLEWARE = 'participationRetryPolicy';

/**
 * Adds the policy to a client's middleware stack. At `initialize`, normal priority: it wraps
 * serialisation, signing, sending and the injected faults (low); a test's request counter (high)
 * stays outside it and counts requests as the code makes them, not attempts.
 */
export function installRetryPolicy(stack: DynamoDBClient['middlewareStack']): void {
  stack.add(
    (next, context) => async (args) => {
      // One token for every attempt of a transaction: DynamoDB applies it at most once.
      const input = args.input as { ClientRequestToken?: string };
      if (String((context as { commandName?: string }).commandName).startsWith('TransactWrite') && input.ClientRequestToken === undefined) {
        args = { ...args, input: { ...input, ClientRequestToken: randomUUID() } };
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await next(args);
        } catch (err) {
          if (!isTransient(classifyFailure(err))) throw err;
          if (attempt >= RETRY_POLICY.maxAttempts) throw exhausted(err);
          await sleep(jitteredDelayMs(attempt));
        }
      }
    },
    { step: 'initialize', name: RETRY_MIDDLEWARE, priority: 'normal' },
  );
}
