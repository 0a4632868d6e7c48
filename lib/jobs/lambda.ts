/**
 * The Lambda handler of a scheduled job (an EventBridge `schedule` event): the clock is the event's
 * scheduled time, the report goes to the log. Not an HTTP route: no Middy HTTP stack.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { bindToInvocation, logger } from '#lib/log/logger';
import { runJob } from '#lib/jobs/index';
import type { JobName } from '#schemas/job';

interface ScheduledEvent {
  time?: string;
}

export function scheduledJob(name: JobName) {
  const run = async (event: ScheduledEvent = {}) => {
    const scheduled = event.time ? new Date(event.time) : new Date();
    const now = Number.isNaN(scheduled.getTime()) ? new Date() : scheduled;
    const report = await runJob(name, { now });
    logger.info('job run', { job: name, now: report.now, units: report.units, more: report.more, sites: report.sites });
    return { job: name, units: report.units, more: report.more };
  };
  // Middy only to bind the logger to the invocation (request id on every line of the run).
  return middy<ScheduledEvent, { job: JobName; units: number; more: boolean }, Error, Context>().use(bindToInvocation()).handler(run);
}
