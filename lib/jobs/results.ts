/**
 * results: recomputes a site's results snapshot (lib/results/compute.ts) when something it shows may
 * have changed. Due when the vote-checkpoints job sequenced new entries (a debounce later, so a burst of
 * votes makes one computation), at every site write, and when a moderator asks
 * (`POST /api/site/:SITE_ID/results/compute`). Each site's computation runs under its lease (never two
 * at a time per site) until the run's deadline; one that does not finish stores its progress and stays
 * due, and the next run goes on from there. One unit of the run's budget per site computed.
 */
import { computeSiteResults } from '#lib/results/compute';
import { runOverDueSites, STOP_BEFORE_DEADLINE_MS, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { updateJobMarker } from '#lib/store/jobs/jobs';

/** Real time a run may spend computing when it is given no deadline (`npm run job`, tests). */
const UNBOUNDED_RUN_MS = 240_000;

export const run = (options: JobOptions): Promise<JobReport> => {
  // Computing stops in time for the run to store its progress and move the markers before Lambda's deadline.
  const deadline = new Date(Date.now() + (options.remainingMs ? options.remainingMs() - STOP_BEFORE_DEADLINE_MS : UNBOUNDED_RUN_MS));
  return runOverDueSites('results', options, (ctx) => compute(ctx, deadline));
};

async function compute({ marker, site, now, budget, report }: SiteContext, deadline: Date): Promise<void> {
  if (Date.now() >= deadline.getTime() || !budget.take()) {
    report.nextDueAt = marker.dueAt;
    return;
  }
  const outcome = await computeSiteResults(site, { deadline, now: new Date(now) });
  if (outcome === 'done') {
    report.done.push('results computed');
    report.nextDueAt = null;
  } else {
    // Unfinished: the next run goes on from the stored progress. Busy: another computation holds the lease.
    report.done.push(outcome === 'unfinished' ? 'results computation continues next run' : 'results being computed by another run');
    report.nextDueAt = now;
  }
  await updateJobMarker(marker, { dueAt: report.nextDueAt });
}
