/**
 * The project's own lifecycle (CONTRACT "Decided details, lifecycle"): while `project.projectHasEnded`
 * is true the site takes no new participation (votes, ideas, arguments, argument votes, users,
 * newsletter signups), whatever the other switches say. Reads, moderation and anonymization go on.
 * Every such entry point calls `assertProjectOpen`; this is the only place the rule is written.
 */
import { forbidden } from '#lib/errors';
import type { SiteConfig } from '#lib/sites/config-defaults';

export const PROJECT_ENDED_MESSAGE = 'The project has ended: this site no longer accepts new contributions';

export const projectHasEnded = (config: Pick<SiteConfig, 'project'>): boolean => config.project?.projectHasEnded === true;

export function assertProjectOpen(config: Pick<SiteConfig, 'project'>): void {
  if (projectHasEnded(config)) throw forbidden(PROJECT_ENDED_MESSAGE);
}
