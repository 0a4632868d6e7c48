/**
 * When each job has work on a site, from the site's config (pure). `siteJobDues` gives the due times
 * a site create/update writes onto the job markers; the jobs use the same rules when they run, so a
 * marker that is out of date never makes a job do what the config does not ask for.
 */
import type { SiteConfig } from '#lib/sites/config-defaults';
import { addDays, instantOf } from '#lib/sites/dates';
import type { JobName } from '#schemas/job';

const isDays = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

export const endDateOf = (config: SiteConfig): string | null => instantOf(config.project.endDate);

export function projectManagerAddress(config: SiteConfig): string | null {
  const address = config.notifications?.projectmanagerAddress;
  return typeof address === 'string' && address.trim() !== '' ? address.trim() : null;
}

/** end-projects has work while the project is not marked ended, or its notice is owed to a project manager. */
export function endProjectsWork(config: SiteConfig): { end: boolean; notify: boolean } {
  return {
    end: !config.project.projectHasEnded,
    notify: !config.project.endDateNotificationSent && projectManagerAddress(config) !== null,
  };
}

/** anonymize-ended: `anonymizeUsersXDaysAfterEndDate` days after the end date. */
export function anonymizeEndedAt(config: SiteConfig): string | null {
  const end = endDateOf(config);
  const days = config.anonymize.anonymizeUsersXDaysAfterEndDate;
  return end && isDays(days) ? addDays(end, days) : null;
}

/** close-ideas: OPEN ideas older than `afterXDays` while `automaticallyUpdateStatus.isActive`. */
export function closeIdeasAfterDays(config: SiteConfig): number | null {
  const rule = config.ideas.automaticallyUpdateStatus;
  return rule?.isActive === true && isDays(rule.afterXDays) ? rule.afterXDays : null;
}

/**
 * anonymize-inactive: warned after `warnUsersAfterXDaysOfInactivity` days without activity, then
 * anonymized once `anonymizeUsersAfterXDaysOfInactivity` days have passed without activity and the
 * warning is at least the difference old (so a warning always comes first and gives that much time).
 */
export function inactivityRule(config: SiteConfig): { warnDays: number; anonymizeDays: number; graceDays: number } | null {
  const { warnUsersAfterXDaysOfInactivity: warnDays, anonymizeUsersAfterXDaysOfInactivity: anonymizeDays } = config.anonymize;
  if (!isDays(warnDays) || !isDays(anonymizeDays) || warnDays === 0) return null;
  return { warnDays, anonymizeDays, graceDays: Math.max(0, anonymizeDays - warnDays) };
}

/**
 * The due time of every job on a site with this config, written when the site is created or updated
 * at `updatedAt`: a one-off job at its date; a recurring one (close-ideas, anonymize-inactive) "now",
 * after which its run computes when it has work next. Null: the job has nothing to do on the site.
 */
export function siteJobDues(config: SiteConfig, updatedAt: string): Record<JobName, string | null> {
  const end = endDateOf(config);
  const work = endProjectsWork(config);
  return {
    'end-projects': end && (work.end || work.notify) ? end : null,
    'close-ideas': closeIdeasAfterDays(config) !== null ? updatedAt : null,
    'anonymize-ended': anonymizeEndedAt(config),
    'anonymize-inactive': inactivityRule(config) ? updatedAt : null,
    // Due at every site write; its run sets the next time (lib/jobs/vote-checkpoints.ts).
    'vote-checkpoints': updatedAt,
    // A site write may change what the results show (vote type, budgets, themes): computed again.
    results: updatedAt,
  };
}
