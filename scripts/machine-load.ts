/**
 * Time limits that hold on a shared machine. A wait that is only there to catch a hang (a server that
 * never answers, a test stuck on a promise) is given a budget in *quiet-machine* time: milliseconds
 * as an idle machine would spend them. The clock that spends a budget runs slower while the machine
 * is busy, by how many runnable tasks each core has (the 1-minute load average over the cores): at
 * load 10 on 2 cores a quiet second lasts 5 wall seconds, because that is how much slower the same
 * work runs then. A budget is never a speed target: budgets are several times what the work takes.
 *
 * Used by the test runner (tests/support/load-aware-runner.ts), the waits of the local stack's
 * start-up (scripts/dynamo-local.ts, scripts/offline.ts) and the tests that wait on a process.
 */
import { availableParallelism, loadavg } from 'node:os';

/** How often the load is read again: the kernel moves its average every 5 s, so more often reads nothing new. */
const READ_EVERY_MS = 1_000;
let lastRead: { atMs: number; slowdown: number } | undefined;

/**
 * How many times slower than on an idle machine work runs now (at least 1). Read at most once a
 * second: every in-process Lambda call asks (scripts/lambda-call.ts), and the two system calls
 * behind it would otherwise be part of every call the benchmarks time.
 */
export function slowdown(): number {
  const now = performance.now();
  if (lastRead && now - lastRead.atMs < READ_EVERY_MS) return lastRead.slowdown;
  const perCore = (loadavg()[0] ?? 0) / availableParallelism();
  lastRead = { atMs: now, slowdown: Number.isFinite(perCore) ? Math.max(1, perCore) : 1 };
  return lastRead.slowdown;
}

/** Quiet-machine milliseconds spent since it was made, advanced by whoever asks (at least every few seconds). */
export class QuietClock {
  private spentMs = 0;
  private readonly started = performance.now();
  private last = this.started;

  constructor(readonly budgetMs: number) {}

  /** Quiet-machine milliseconds spent so far. */
  spent(): number {
    const now = performance.now();
    this.spentMs += (now - this.last) / slowdown();
    this.last = now;
    return this.spentMs;
  }

  expired(): boolean {
    return this.spent() >= this.budgetMs;
  }

  /** What a message about an expired budget says: the budget, and the wall time it took at this load. */
  describe(): string {
    return `${(this.budgetMs / 1000).toFixed(0)} s of quiet-machine time (${((performance.now() - this.started) / 1000).toFixed(0)} s wall, load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`;
  }
}

/** How often a budget's clock is read while it runs out. */
const TICK_MS = 250;

/**
 * Calls `onExpired` once `budgetMs` of quiet-machine time has passed, unless the returned function
 * cancels it first. The timer never keeps the process alive.
 */
function whenBudgetSpent(budgetMs: number, onExpired: (clock: QuietClock) => void): () => void {
  const clock = new QuietClock(budgetMs);
  const timer = setInterval(() => {
    if (!clock.expired()) return;
    clearInterval(timer);
    onExpired(clock);
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Settles as `work` does, or rejects with `describe(clock)` once `budgetMs` of quiet-machine time has passed. */
export async function withinBudget<T>(work: Promise<T>, budgetMs: number, describe: (clock: QuietClock) => string): Promise<T> {
  let cancel: () => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    cancel = whenBudgetSpent(budgetMs, (clock) => reject(new Error(describe(clock))));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    cancel();
  }
}
