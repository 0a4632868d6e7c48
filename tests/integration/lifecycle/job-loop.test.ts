/**
 * The local job loop (scripts/job-loop.ts, for `npm start`): says what it runs, runs every job through
 * the due-marker index in one round, and stops cleanly. Its clock is 1900, when nothing is due, so it
 * cannot touch other tests' sites.
 */
import { describe, expect, it } from 'vitest';
import { countRequests } from '#tests/support/request-counter';
import { startJobLoop } from '../../../scripts/job-loop.ts';

describe('startJobLoop', () => {
  it('prints its interval, runs every job per round (one Query each when nothing is due) and stops', async () => {
    const lines: string[] = [];
    const loop = await startJobLoop({ intervalMs: 3_600_000, clock: () => new Date('1900-01-01T00:00:00Z'), log: (l) => lines.push(l) });
    expect(lines).toEqual(['  scheduled jobs: end-projects, close-ideas, anonymize-ended, anonymize-inactive, vote-checkpoints, results every 3600 s (npm run job -- <name> runs one now)']);
    const { commands } = await countRequests(() => loop.runOnce());
    expect(commands).toEqual({ QueryCommand: 6 });
    expect(lines).toHaveLength(1);
    await loop.stop();
  });
});
