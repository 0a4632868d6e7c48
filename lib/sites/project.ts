/**
 * The project's own lifecycle (CONTRACT "Decided details, lifecycle"): the project has ended while
 * `project.projectHasEnded` is true, and from `project.endDate` on, whatever the `end-projects` job
 * has done yet (it sets the flag and sends the notice, hourly; the end date is the end at request
 * time, to the millisecond). An ended site takes no new participation (votes, ideas, arguments,
 * argument votes, users, newsletter signups), whatever the other switches say, and its ideas and
 * arguments are frozen for their authors; reads, moderation and anonymization go on.
 * Every such entry point calls `assertProjectOpen` (or `projectHasEnded`); this is the only place the
 * rule is written.
 */
import { forbidden } from '#lib/errors';
import type { SiteConfig } from '#lib/sites/config-defaults';

export const PROJECT_ENDED_MESSAGE = 'The project has ended: this site no longer accepts new contributions';

/** The instant of `project.endDate` (`2026-05-01`, `2026-05-01T12:00:00+02:00`) in ms, or null when there is none. */
function endDateMs(config: Pick<SiteConfig, 'project'>): number | null {
  const value = config.project?.endDate;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

export function projectHasEnded(config: Pick<SiteConfig, 'project'>, now: Date = new Date()): boolean {
  if (config.project?.projectHasEnded === true) return true;
  const end = endDateMs(config);
  return end !== null && end <= now.getTime();
}

export function assertProjectOpen(config: Pick<SiteConfig, 'project'>, now?: Date): void {
  if (projectHasEnded(config, now)) throw forbidden(PROJECT_ENDED_MESSAGE);
}
