/**
 * The Lambda handler of a scheduled job (an EventBridge `schedule` event): the clock is the event's
 * scheduled time, the report goes to the log. Not an HTTP route: no Middy HTTP stack.
 */
import { logger } from '#lib/log/logger';
import type { JobOptions, JobReport } from '#lib/jobs/run';
import type { JobName } from '#schemas/job';

interface ScheduledEvent {
  time?: string;
}

/**
 * @param run the job's own `run` (lib/jobs/<job>.ts), imported by its function file, so each job's
 *   bundle holds that job only, not all five (lib/jobs/index.ts names them all, for scripts).
 */
export function scheduledJob(name: JobName, run: (options: JobOptions) => Promise<JobReport>) {
  const handler = async (event: ScheduledEvent = {}) => {
    const scheduled = event.time ? new Date(event.time) : new Date();
    const now = Number.isNaN(scheduled.getTime()) ? new Date() : scheduled;
    const report = await run({ now });
    logger.info('job run', { job: name, now: report.now, units: report.units, more: report.more, sites: report.sites });
    return { job: name, units: report.units, more: report.more };
  };
  // No Middy: on Lambda the runtime puts the request id on every log line of the run (lib/log/logger.ts).
  return handler;
}
