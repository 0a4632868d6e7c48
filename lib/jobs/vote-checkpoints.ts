/**
 * vote-checkpoints: per due site, the Merkle root over its ballot hashes (one Query
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
import { addDays } from '#lib/sites/dates';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { projectHasEnded } from '#lib/sites/project';
import { nextId } from '#lib/store/db/counters';
import { updateJobMarker } from '#lib/store/jobs/jobs';
import { readSiteBallots } from '#lib/store/ballots/site-ranges';
import { latestCheckpoint, publishCheckpoint } from '#lib/store/checkpoints/checkpoints';
import { merkleRoot } from '#lib/crypto/merkle';
import { leavesAt } from '#lib/votes/verify';

/** How long after a run the job looks at a site again while votes can change. */
const INTERVAL_DAYS = 1 / 24;
/** How far before the run's clock a checkpoint is taken (see `at` below): one minute. */
const SETTLE_DAYS = 1 / 1440;

export const run = (options: JobOptions): Promise<JobReport> => runOverDueSites('vote-checkpoints', options, checkpoint);

async function checkpoint({ marker, site, now, budget, report }: SiteContext): Promise<void> {
  // The checkpoint pins the ballots as they were at `at`, a minute before the run's clock: every state
  // written before then has committed (a round takes its time stamp just before its transaction), and
  // a state written since is replaced by the one before it (lib/votes/verify.ts `leavesAt`), exactly
  // as verify-votes rebuilds it.
  const at = addDays(now, -SETTLE_DAYS);
  const [ballots, latest] = await Promise.all([readSiteBallots(site.id, 'seal', true), latestCheckpoint(site.id)]);
  const state = leavesAt(ballots, at);
  if ('unknown' in state) {
    // A ballot changed twice within the minute: its state at `at` is gone; the next run takes a later one.
    report.failed.push(`ballot of user ${state.unknown} changed twice since ${at}; retried next run`);
    report.nextDueAt = addDays(now, INTERVAL_DAYS);
    await updateJobMarker(marker, { dueAt: report.nextDueAt });
    return;
  }
  const root = merkleRoot(state.leaves);
  const current = latest !== undefined ? latest.root === root : state.leaves.length === 0;
  // Ended and current: nothing can change unnoticed any more but anonymization and idea deletes, which
  // a site update (due again) or `npm run job -- vote-checkpoints --site N` picks up.
  const settled = projectHasEnded(site.config) && ballots.every((b) => b.updatedAt <= at);
  if (current) {
    report.nextDueAt = settled ? null : addDays(now, INTERVAL_DAYS);
    await updateJobMarker(marker, { dueAt: report.nextDueAt });
    return;
  }
  if (!budget.take()) {
    report.nextDueAt = now;
    await updateJobMarker(marker, { dueAt: now });
    return;
  }
  const id = await nextId('checkpoint');
  report.nextDueAt = settled ? null : addDays(now, INTERVAL_DAYS);
  // With the marker, conditioned on it as read: an overlapping run that got there first wins.
  if (await publishCheckpoint({ id, siteId: site.id, root, ballots: state.leaves.length, createdAt: at }, marker, report.nextDueAt)) {
    report.done.push(`checkpoint ${id} (${state.leaves.length} ballot(s), root ${root.slice(0, 12)}...)`);
  }
}
