/**
 * results: recomputes a site's results snapshot (lib/results/compute.ts) when something it shows may
 * have changed. Due when the vote-checkpoints job sequenced new entries (a debounce later, so a burst of
 * votes makes one computation), at every site write, and when a moderator asks
 * (`POST /api/site/:SITE_ID/results/compute`). Each site's computation runs under its lease (never two
 * at a time per site) until the run's deadline; one that does not finish stores its progress and stays
 * due, and the next run goes on from there. One unit of the run's budget per site computed.
 */
import { computeSiteResults } from '#lib/results/compute';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { updateJobMarker } from '#lib/store/jobs';

/** Real time a run may spend computing, when the caller sets no deadline (the function's timeout is 300 s). */
const DEFAULT_RUN_MS = 240_000;

export const run = (options: JobOptions): Promise<JobReport> => {
  const deadline = options.deadline ?? new Date(Date.now() + DEFAULT_RUN_MS);
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
