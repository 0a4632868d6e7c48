/**
 * vote-checkpoints (issue 16 part 3): per due site, the Merkle root over its ballot hashes (one Query
 * page per 1 MB of projected ballot reads: user id, hash, version, times), compared with the site's
 * latest checkpoint; a new checkpoint `{id, siteId, root, ballots, createdAt}` is written only when the
 * root moved (or there is none yet and the site has ballots). A rerun, or an overlapping run, finds the
 * same root and writes nothing: idempotent. Bounded like every job: at most `limits.sites` sites, one
 * unit of the budget per checkpoint written.
 *
 * Which sites: no item is written by every vote round (no site-wide hot item), so changed ballots are
 * found by a cheap rule instead of a per-round marker (docs/results.md "Checkpoints"): the job's marker
 * is due at every site create/update, and after each run again an hour later, while votes can still
 * change; once the project has ended and the latest checkpoint matches the ballots, the marker goes
 * off the index (nothing more to publish). `npm run job -- vote-checkpoints --site N` runs it for one site.
 */
import { addDays } from '#lib/jobs/time';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { projectHasEnded } from '#lib/sites/project';
import { nextId } from '#lib/store/counters';
import { updateJobMarker } from '#lib/store/jobs';
import { readSiteBallots } from '#lib/store/site-reads';
import { latestCheckpoint, putCheckpoint } from '#lib/store/vote-checkpoints';
import { rootOf } from '#lib/votes/checkpoints';

/** How long after a run the job looks at a site again while votes can change. */
const INTERVAL_DAYS = 1 / 24;

export const run = (options: JobOptions): Promise<JobReport> => runOverDueSites('vote-checkpoints', options, checkpoint);

async function checkpoint({ marker, site, now, budget, report }: SiteContext): Promise<void> {
  // `now` (the checkpoint's createdAt) is taken before these reads (strongly consistent).
  const [ballots, latest] = await Promise.all([readSiteBallots(site.id, 'seal', true), latestCheckpoint(site.id)]);
  const root = rootOf(ballots);
  const current = latest !== undefined ? latest.root === root : ballots.length === 0;
  if (!current) {
    if (!budget.take()) {
      report.nextDueAt = now;
      await updateJobMarker(marker, { dueAt: now });
      return;
    }
    const id = await nextId('checkpoint');
    await putCheckpoint({ id, siteId: site.id, root, ballots: ballots.length, createdAt: now });
    report.done.push(`checkpoint ${id} (${ballots.length} ballot(s), root ${root.slice(0, 12)}...)`);
  }
  report.nextDueAt = projectHasEnded(site.config) && current ? null : addDays(now, INTERVAL_DAYS);
  await updateJobMarker(marker, { dueAt: report.nextDueAt });
}
