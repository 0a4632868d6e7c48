/**
 * The scheduled jobs for `npm start`: every job, one after the other, on a short interval (60 s by
 * default), with the same code as their Lambdas (lib/jobs). Runs never overlap: the next round is
 * timed from the end of the last. Rounds that did nothing print nothing.
 *
 * The caller sets the environment (TABLE_NAME, DYNAMODB_ENDPOINT) first: lib/ is imported on start.
 */
import { JOB_NAMES } from '#schemas/job';
import { jobIntervalSeconds } from './job-interval.ts';

interface JobLoopOptions {
  /** Between rounds; default 60 000 ms (JOBS_INTERVAL_SECONDS overrides it). */
  intervalMs?: number;
  /** The jobs' clock; default the wall clock. */
  clock?: () => Date;
  log?: (line: string) => void;
  /** Leave out the line that says the loop started (npm start's status block says it). */
  quiet?: boolean;
}

interface JobLoop {
  intervalMs: number;
  /** Runs one round now (and resolves when it is done); for tests and for a manual nudge. */
  runOnce(): Promise<void>;
  /** Stops scheduling; resolves when a round in flight has finished. */
  stop(): Promise<void>;
}

export async function startJobLoop(options: JobLoopOptions = {}): Promise<JobLoop> {
  const intervalMs = options.intervalMs ?? jobIntervalSeconds() * 1000;
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const { runJob, formatReport } = await import('#lib/jobs/index');

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const round = async () => {
    for (const name of JOB_NAMES) {
      if (stopped) return;
      try {
        const report = await runJob(name, { now: clock() });
        if (report.units > 0 || report.sites.some((s) => s.failed.length > 0)) log(formatReport(report));
      } catch (err) {
        log(`job ${name} failed: ${(err as Error).message}`);
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = round().finally(schedule);
    }, intervalMs);
    timer.unref();
  };

  if (!options.quiet) log(`  scheduled jobs: ${JOB_NAMES.join(', ')} every ${Math.round(intervalMs / 1000)} s (npm run job -- <name> runs one now)`);
  schedule();
  return {
    intervalMs,
    runOnce: () => (inFlight = inFlight.then(round)),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
