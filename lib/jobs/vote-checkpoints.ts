/**
 * vote-checkpoints: per due site, one signed checkpoint of its vote log (lib/jobs/sequence-log.ts): the
 * entries written up to a minute before the run, in log order, appended to the log's Merkle tree, the
 * root signed with the signing key. Written at every run, whatever voters do meanwhile: nothing a voter
 * sends can hold a checkpoint back (an entry written during the run goes into the next one).
 *
 * Which sites: no item is written by every vote round, so the job does not learn of new entries from a
 * per-round marker; the marker is due at every site create/update and, after each run, again an hour
 * later while votes can change. Once the project has ended and a run found nothing new, the marker goes
 * off the index; a site update, or `npm run job -- vote-checkpoints --site N`, brings it back (e.g.
 * after anonymizations, which append entries). One unit of the run's budget per checkpoint.
 */
import { addDays } from '#lib/sites/dates';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { sequenceSiteLog } from '#lib/jobs/sequence-log';
import { projectHasEnded } from '#lib/sites/project';
import { updateJobMarker } from '#lib/store/jobs/jobs';

/** How long after a run the job looks at a site again while votes can change. */
const INTERVAL_DAYS = 1 / 24;
/** A site whose log another run holds: tried again this soon. */
const BUSY_RETRY_DAYS = 5 / 1440;

export const run = (options: JobOptions): Promise<JobReport> => runOverDueSites('vote-checkpoints', options, checkpoint);

async function checkpoint({ marker, site, now, budget, report }: SiteContext): Promise<void> {
  if (!budget.take()) {
    report.nextDueAt = now;
    await updateJobMarker(marker, { dueAt: now });
    return;
  }
  const outcome = await sequenceSiteLog(site.id, new Date(now));
  if (outcome.forged.length > 0) report.failed.push(...outcome.forged.map((entry) => `entry not sealed by the chain key, left out of the log: ${entry}`));
  if (outcome.busy) {
    report.nextDueAt = addDays(now, BUSY_RETRY_DAYS);
  } else {
    if (outcome.checkpointId !== null) report.done.push(`checkpoint ${outcome.checkpointId} (${outcome.treeSize} entries, ${outcome.appended} new)`);
    report.nextDueAt = projectHasEnded(site.config) && outcome.appended === 0 ? null : addDays(now, INTERVAL_DAYS);
  }
  await updateJobMarker(marker, { dueAt: report.nextDueAt });
}
