/**
 * anonymize-ended: `anonymize.anonymizeUsersXDaysAfterEndDate` days after the end date, every user of
 * the site who is not anonymized yet is anonymized. They are read from the site's activity index
 * (GSI2 `USERS#<s>`), which holds exactly those users, batch after batch until the run's budget
 * (its deadline on Lambda) is spent, CONCURRENCY at a time; the next run continues with who is left,
 * and the marker goes off the index once nobody is. Each batch reads on after the last index key of
 * the one before, so the index's lag never hands the run a user it has just anonymized.
 */
import { anonymizeByJob } from '#lib/jobs/anonymize-user';
import { anonymizeEndedAt } from '#lib/sites/job-dues';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { updateJobMarker } from '#lib/store/jobs/jobs';
import { usersByActivity } from '#lib/store/users/users';

/** Runs `work` over `items`, at most `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Users read per Query. */
const BATCH = 50;
/** Anonymizations in flight at once: each is a few requests and perhaps a call to the auth server. */
const CONCURRENCY = 8;

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
  let after: string | undefined;
  let left = true;
  while (!budget.exhausted()) {
    const want = Math.min(BATCH, budget.left);
    // One more than wanted: whether anybody is left after this batch.
    const users = await usersByActivity(site.id, undefined, want + 1, after);
    const taken: typeof users = [];
    for (const user of users.slice(0, want)) {
      if (!budget.take()) break;
      taken.push(user);
    }
    await inPool(taken, CONCURRENCY, ({ user }) => anonymizeByJob(site, user.id, clock, report, 'project ended'));
    left = users.length > taken.length;
    if (!left || taken.length === 0) break;
    after = taken.at(-1)!.indexKey;
  }
  // Somebody left (cut off by the bound, or failed and retried): due again at once.
  const done = !left && report.failed.length === 0;
  report.nextDueAt = done ? null : now;
  if (done) await updateJobMarker(marker, { dueAt: null });
}
