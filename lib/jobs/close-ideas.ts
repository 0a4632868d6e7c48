/**
 * close-ideas: with `ideas.automaticallyUpdateStatus {isActive, afterXDays}`, OPEN ideas older than
 * `afterXDays` become CLOSED. The site's ideas are read in id (= creation) order from the marker's
 * cursor on, so each idea is looked at once, when it has come of age; the marker then falls due when
 * the next idea does. An idea is closed by a write conditioned on the version read, so an edit or
 * an overlapping run in between wins and nothing is closed twice.
 */
import { closeIdeasAfterDays } from '#lib/sites/job-dues';
import { runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { addDays } from '#lib/sites/dates';
import { ideaIndexSpec } from '#lib/discovery/index-spec';
import { ideasFromId } from '#lib/store/ideas/closing';
import { replaceIdea } from '#lib/store/ideas/ideas';
import { updateJobMarker } from '#lib/store/jobs/jobs';

/** Ideas read per site per run (each is a unit of the run's budget only when it is closed). */
const READ_LIMIT = 100;

export const run = (options: JobOptions): Promise<JobReport> => runOverDueSites('close-ideas', options, closeIdeas);

async function closeIdeas({ marker, site, now, budget, report }: SiteContext): Promise<void> {
  const days = closeIdeasAfterDays(site.config);
  if (days === null) {
    await updateJobMarker(marker, { dueAt: null });
    return;
  }
  const cutoff = addDays(now, -days);
  const { ideas, more } = await ideasFromId(site.id, marker.cursor + 1, READ_LIMIT);
  let cursor = marker.cursor;
  let nextDueAt: string | null = null;
  for (const { item, deleting } of ideas) {
    if (item.createdAt > cutoff) {
      nextDueAt = addDays(item.createdAt, days);
      break;
    }
    if (!deleting && item.status === 'OPEN') {
      if (!budget.take()) {
        nextDueAt = now;
        break;
      }
      const closed = { ...item, status: 'CLOSED' as const, updatedAt: now, version: item.version + 1 };
      // Through the idea's index too, so the status filter finds it CLOSED at once.
      const outcome = await replaceIdea(closed, item.version, { index: ideaIndexSpec(closed) });
      if (outcome !== 'ok') {
        // Changed since it was read (an edit, a delete, another run): the next run reads it again.
        nextDueAt = now;
        break;
      }
      report.done.push(`idea ${item.id} CLOSED`);
    }
    cursor = item.id;
  }
  // Read to the end: an idea created from now on comes of age `days` from now at the earliest.
  nextDueAt ??= more ? now : addDays(now, days);
  report.nextDueAt = nextDueAt;
  await updateJobMarker(marker, { dueAt: nextDueAt, cursor });
}
