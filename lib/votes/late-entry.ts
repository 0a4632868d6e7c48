/**
 * A vote-log entry written outside a vote round (a moderator's review, an anonymization, an idea
 * delete's cascade, an import) makes the site's vote-checkpoints job due. These writes go on after
 * the project has ended, when the job rests (lib/jobs/vote-checkpoints.ts) and nothing else would
 * bring it back before the entry is past the lag limit. Vote rounds do not call this: they happen only
 * while the project is open, when the job looks at the site every hour anyway, and a write of theirs
 * would be an item written by every round. Due a settle minute after the entry, so the run that
 * takes it up cuts after it; a marker due sooner keeps its time.
 */
import { makeJobDueBy } from '#lib/store/jobs/jobs';
import { LOG_SETTLE_MS } from '#lib/vote-record/schedule';

export const checkpointLateEntry = (siteId: number, writtenAt: Date | string): Promise<void> =>
  makeJobDueBy(siteId, 'vote-checkpoints', new Date(new Date(writtenAt).getTime() + LOG_SETTLE_MS).toISOString());
