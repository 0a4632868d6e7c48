/**
 * Runs a job "later" in a test: the process's wall clock moved to `at` while `run` runs (and ticking
 * on from there), as a run started at that time would have it. The vote-checkpoints job never cuts
 * its log past a minute before the wall clock, whatever clock it is given (votes cast until then must
 * not land before a cut already signed), so a test that runs it a minute ahead to take in the votes it
 * just cast moves the wall clock with it.
 */
import { vi } from 'vitest';

export async function atWallClock<T>(at: Date, run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: at, shouldAdvanceTime: true });
  try {
    return await run();
  } finally {
    vi.useRealTimers();
  }
}
