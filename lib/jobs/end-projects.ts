/**
 * end-projects: once `project.endDate` has passed, the project is marked ended
 * (`projectHasEnded: true`, which closes the site: lib/sites/project.ts) and the project manager's
 * notice goes into the outbox, `endDateNotificationSent` recorded in the same transaction. A rerun or
 * an overlapping run finds the marker moved and writes nothing.
 */
import { endDateOf, endProjectsWork, projectManagerAddress } from '#lib/sites/job-dues';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { pendingNotification, projectEndedNotice } from '#lib/notifications/messages';
import { newId } from '#lib/store/db/ids';
import { commitEndProject, updateJobMarker } from '#lib/store/jobs/jobs';

export const run = (options: JobOptions): Promise<JobReport> => runOverDueSites('end-projects', options, endProject);

async function endProject({ marker, stored, site, now, budget, report }: SiteContext): Promise<void> {
  const endDate = endDateOf(site.config);
  const work = endProjectsWork(site.config);
  if (!endDate || endDate > now || !(work.end || work.notify)) {
    // The config changed since the marker was written: put it where the config says.
    report.nextDueAt = endDate && endDate > now && (work.end || work.notify) ? endDate : null;
    await updateJobMarker(marker, { dueAt: report.nextDueAt });
    return;
  }
  if (!budget.take()) {
    report.nextDueAt = marker.dueAt;
    return;
  }
  const address = projectManagerAddress(site.config);
  const notification =
    work.notify && address
      ? pendingNotification(site.id, newId(), projectEndedNotice(site, address, endDate), now)
      : undefined;
  const project = {
    ...(stored.config.project ?? {}),
    projectHasEnded: true,
    ...(notification ? { endDateNotificationSent: true } : {}),
  };
  if (await commitEndProject({ marker, siteUpdatedAt: stored.updatedAt, project, notification, found: { notEnded: work.end, notNotified: work.notify } })) {
    report.done.push(`project ended${notification ? `, notification ${notification.id} to the project manager` : ''}`);
  }
  // Not committed: another run ended it, or an admin changed the site meanwhile (their markers stand).
}
