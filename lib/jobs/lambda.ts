/**
 * The Lambda handler of a scheduled job (an EventBridge `schedule` event): the clock is the event's
 * scheduled time, the run works until shortly before the invocation's deadline
 * (`context.getRemainingTimeInMillis()`), the report goes to the log and the counts to metrics.
 *
 * A run with a failed unit fails loudly: it emits JobUnitsFailed (alarmed) and then fails the
 * invocation, so Lambda retries it and, after the retries, sends it to the jobs' dead-letter queue
 * (alarmed too; serverless.yml custom.jobs, docs/operations.md). The units done stay done: every job
 * continues from its markers.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { ACCESS_CLASSES, type AccessClass } from '#lib/config/access-classes';
import { loadSecrets } from '#lib/store/secrets/load';
import { logger } from '#lib/log/logger';
import { count, gauge, type GaugeName } from '#lib/observability/metrics';
import { observability } from '#lib/observability/middleware';
import type { JobOptions, JobReport } from '#lib/jobs/run';
import type { JobName } from '#schemas/job';

interface ScheduledEvent {
  time?: string;
}

/** Each job's access class (functions/jobs/functions.yml gives it the class's role): only vote-checkpoints signs. */
export const jobAccessClass = (name: JobName): AccessClass => (name === 'vote-checkpoints' ? 'checkpoint' : 'job');

export class JobUnitsFailed extends Error {
  override name = 'JobUnitsFailed';
}

/**
 * @param run the job's own `run` (lib/jobs/<job>.ts), imported by its function file, so each job's
 *   bundle holds that job only, not all five (lib/jobs/index.ts names them all, for scripts).
 */
export function scheduledJob(name: JobName, run: (options: JobOptions) => Promise<JobReport>) {
  const secrets = ACCESS_CLASSES[jobAccessClass(name)].secrets;
  const handler = async (event: ScheduledEvent = {}, context?: Context) => {
    // Fetched afresh once a run: the vote-checkpoints job signs for up to its timeout (no longer than the
    // secrets cache's max age, functions/jobs/functions.yml), and a seed is used only within the max age
    // of its fetch (the rotation retires the old one then). A store that does not answer fails the run:
    // the job signs nothing with a seed it can no longer vouch for (alarmed, as every failed run).
    await loadSecrets(secrets, (error) => logger.error('secret store refresh failed; using the values read before, within their max age', { error: error as Error }), { refetch: true });
    const scheduled = event.time ? new Date(event.time) : new Date();
    const now = Number.isNaN(scheduled.getTime()) ? new Date() : scheduled;
    const remainingMs = context?.getRemainingTimeInMillis ? () => context.getRemainingTimeInMillis() : undefined;
    const report = await run({ now, ...(remainingMs ? { remainingMs } : {}) });
    const failed = report.sites.reduce((n, site) => n + site.failed.length, 0);
    count('JobUnitsDone', report.units, { dimension: 'job', value: name });
    count('JobUnitsFailed', failed, { dimension: 'job', value: name });
    for (const [metric, value] of Object.entries(report.gauges ?? {})) gauge(metric as GaugeName, value);
    logger.info('job run', { job: name, now: report.now, units: report.units, failed, more: report.more, gauges: report.gauges, sites: report.sites });
    if (failed > 0) throw new JobUnitsFailed(`${name}: ${failed} unit(s) failed (see the "job run" line); they stay due for the next run`);
    return { job: name, units: report.units, more: report.more };
  };
  // The trace segment and the metrics' publishing, as for the HTTP routes; no HTTP middleware. On
  // Lambda the runtime puts the request id on every log line of the run (lib/log/logger.ts).
  return middy<ScheduledEvent, { job: JobName; units: number; more: boolean }>().use([...observability()]).handler(handler);
}
