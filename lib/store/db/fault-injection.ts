/**
 * Fault injection for tests: what real DynamoDB does and DynamoDB Local never does. Enabled
 * only when `DYNAMO_FAULTS` is set (lib/config/env.ts), e.g. `conflict=0.2,throttle=0.1,drop=0.05,seed=7`:
 *
 *   conflict  a TransactWriteItems is cancelled with `TransactionConflict` (another transaction held an
 *             item), as the service does under contention
 *   throttle  any request is refused with `ProvisionedThroughputExceededException` or
 *             `ThrottlingException` (a hot partition, a table over its capacity)
 *   drop      the connection is reset before the request reaches the table (`ECONNRESET`)
 *
 * Installed just inside the retry policy (lib/store/db/retry.ts), so the app sees exactly what it would
 * see from the service: retries first, then 409 / 503. Deterministic for a given seed. A fault is never
 * injected after a write was applied: a lost answer of a non-transactional write is outside what the
 * retry policy can make safe (see docs/data-model.md "Failures").
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

interface FaultRates {
  conflict: number;
  throttle: number;
  drop: number;
  seed: number;
}

/** `conflict=0.2,throttle=0.1,drop=0.05,seed=7` -> rates (missing ones 0). Throws on anything else. */
export function parseFaultRates(spec: string): FaultRates {
  const rates: FaultRates = { conflict: 0, throttle: 0, drop: 0, seed: 1 };
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value] = part.split('=');
    const n = Number(value);
    if (!(name === 'conflict' || name === 'throttle' || name === 'drop' || name === 'seed') || !Number.isFinite(n)) {
      throw new Error(`DYNAMO_FAULTS: cannot read "${part}" (expected conflict|throttle|drop|seed=<number>)`);
    }
    if (name !== 'seed' && (n < 0 || n > 1)) throw new Error(`DYNAMO_FAULTS: ${name} must be a rate between 0 and 1`);
    rates[name] = n;
  }
  return rates;
}

/** mulberry32: a tiny seeded generator, so a failing faults run can be replayed with its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const named = (name: string, message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { name, ...extra });

const FAULT_MIDDLEWARE = 'participationFaultInjection';

/**
 * Faults in a row on one request, at most: transient faults, as the service's are, so a run with
 * injection on proves the retries (and 409/503 after them is proven by tests that inject on purpose).
 */
const MAX_FAULTS_PER_REQUEST = 3;

export function installFaultInjection(stack: DynamoDBClient['middlewareStack'], rates: FaultRates): void {
  const random = seeded(rates.seed);
  const faultsOf = new WeakMap<object, number>();
  stack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? '');
      const seen = faultsOf.get(args.input as object) ?? 0;
      if (seen >= MAX_FAULTS_PER_REQUEST) return next(args);
      faultsOf.set(args.input as object, seen + 1);
      const roll = random();
      if (roll < rates.drop) throw named('Error', 'socket hang up (injected)', { code: 'ECONNRESET' });
      if (roll < rates.drop + rates.throttle) {
        throw random() < 0.5
          ? named('ProvisionedThroughputExceededException', 'The level of configured provisioned throughput for the table was exceeded (injected)')
          : named('ThrottlingException', 'Rate of requests exceeds the allowed throughput (injected)');
      }
      if (command.startsWith('TransactWrite') && roll < rates.drop + rates.throttle + rates.conflict) {
        const items = ((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length;
        const reasons = Array.from({ length: items }, (_, i) => (i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item (injected)' } : { Code: 'None' }));
        throw named('TransactionCanceledException', 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict] (injected)', {
          CancellationReasons: reasons,
        });
      }
      faultsOf.set(args.input as object, seen);
      return next(args);
    },
    // Low priority at initialize: inside the retry policy (normal) and the tests' request counter (high).
    { step: 'initialize', name: FAULT_MIDDLEWARE, priority: 'low' },
  );
}
