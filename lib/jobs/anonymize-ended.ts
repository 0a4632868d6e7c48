/**
 * anonymize-ended: `anonymize.anonymizeUsersXDaysAfterEndDate` days after the end date, every user of
 * the site who is not anonymized yet is anonymized. They are read from the site's activity index
 * (GSI2 `USERS#<s>`), which holds exactly those users, a batch per run, so the next run continues
 * with who is left; the marker goes off the index once nobody is.
 */
import { anonymizeByJob } from '#lib/jobs/anonymize-user';
import { anonymizeEndedAt } from '#lib/sites/job-dues';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { updateJobMarker } from '#lib/store/jobs';
import { usersByActivity } from '#lib/store/users';

/** Users read per site per run. */
const BATCH = 50;

export const run = (options: JobOptions): Promise<JobReport> =>
  runOverDueSites('anonymize-ended', options, (ctx) => anonymizeEnded(ctx, options.now));

async function anonymizeEnded({ marker, site, now, budget, report }: SiteContext, clock: Date): Promise<void> {
  const dueAt = anonymizeEndedAt(site.config);
  if (dueAt === null || dueAt > now) {
    report.nextDueAt = dueAt;
    await updateJobMarker(marker, { dueAt });
    return;
  }
  // Not before the project is marked ended (end-projects does that first; until then it stays due).
  if (!site.config.project.projectHasEnded) {
    report.nextDueAt = marker.dueAt;
    return;
  }
  const users = await usersByActivity(site.id, undefined, Math.min(BATCH, budget.left) + 1);
  let left = users.length;
  for (const { user } of users) {
    if (!budget.take()) break;
    await anonymizeByJob(site, user.id, clock, report, 'project ended');
    left -= 1;
  }
  // Somebody left (cut off by the bound, or failed and retried): due again at once.
  const done = left === 0 && report.failed.length === 0;
  report.nextDueAt = done ? null : now;
  if (done) await updateJobMarker(marker, { dueAt: null });
}
