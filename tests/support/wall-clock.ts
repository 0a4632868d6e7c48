/**
 * Runs a job "later" in a test: the process's wall clock moved to `at` while `run` runs (and ticking
 * on from there), as a run started at that time would have it. The vote-checkpoints job never cuts
 * its log past a minute before the wall clock, whatever clock it is given (votes cast until then must
 * not land before a cut already signed), so a test that runs it a minute ahead to take in the votes it
 * just cast moves the wall clock with it.
 *
 * The clock is the whole process's: whatever else runs meanwhile reads the moved clock too (a vote
 * cast then is stamped ahead), and a second move started meanwhile would be undone by the first one's
 * end. So one move at a time, with nothing else running beside it: a second one is refused.
 */
import { vi } from 'vitest';

let moved = false;

export async function atWallClock<T>(at: Date, run: () => Promise<T>): Promise<T> {
  if (moved) throw new Error('atWallClock: the wall clock is already moved by a run still going on; move it once, for everything that needs it');
  moved = true;
  vi.useFakeTimers({ toFake: ['Date'], now: at, shouldAdvanceTime: true });
  try {
    return await run();
  } finally {
    vi.useRealTimers();
    moved = false;
  }
}
