/**
 * Computing a site's results snapshot (docs/results.md "Results snapshots"): under the site's
 * computation lease (at most one computation per site at a time, whoever asks), read the ballots and
 * ideas, compute until the deadline (going on from stored progress), and store the snapshot with what
 * it covers. Used by the `results` job and by a moderator's GET; never by anyone else's request.
 *
 * What a snapshot covers: the ballots as read (`computedAt`); `coveredUntil` = a settle time before the
 * read (every round stamped before it has committed); `settling` = how many entries stamped after
 * `coveredUntil` had committed just before the ballots were read (a consistent read, so it holds them).
 * A later entry (a later vote, or a round that was still committing) raises the log's count past
 * `settling` and makes the snapshot stale; nothing else does. `checkpoint`: the latest signed checkpoint when the log
 * held no entry past its cut once the ballots were read (every entry committed before the read is then
 * in it, and the checkpoint was built before), so the snapshot's ballots are exactly its log's.
 */
import { randomBytes } from 'node:crypto';
import type { Site } from '#lib/sites/site';
import { computeResultsWithin, type Results, type ResultsIdea, type ResultsProgress } from '#lib/results/results';
import { packSnapshot } from '#lib/results/snapshot';
import { getResultsHead, getResultsState, releaseResultsLease, takeResultsLease, writeResultsSnapshot } from '#lib/store/results/snapshots';
import { readSiteBallots, readSiteIdeas, type SiteIdeaItem } from '#lib/store/ballots/site-ranges';
import { countLogEntriesAfter, latestSignedCheckpoint, newestLogEntryAt } from '#lib/store/vote-log/log';
import { entryVotes } from '#lib/votes/seal';

/** Entries written this long before a read may still be committing: the read does not count as covering them. */
export const SETTLE_MS = 60_000;

export const themeOf = (idea: Pick<SiteIdeaItem, 'extraData'>): string | null =>
  typeof idea.extraData?.theme === 'string' ? idea.extraData.theme : null;

export const budgetOf = (idea: Pick<SiteIdeaItem, 'budget'>): number | null => (typeof idea.budget === 'number' ? idea.budget : null);

export const resultsIdeaOf = (idea: SiteIdeaItem): ResultsIdea => ({ id: idea.id, title: idea.title, budget: budgetOf(idea), theme: themeOf(idea) });

/** The snapshot's body: the CONTRACT's results, and the checkpoint whose log holds exactly its ballots. */
export interface ResultsSnapshotBody extends Results {
  checkpoint: { id: number; treeSize: number; root: string } | null;
}

/** Stored progress, or none when there is none or it cannot be read (the computation then starts afresh). */
function progressOf(text: string | undefined): ResultsProgress | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as ResultsProgress;
  } catch {
    return undefined;
  }
}

type ComputeOutcome = 'done' | 'unfinished' | 'busy';

interface ComputeOptions {
  /** Stop computing at this instant (real time) and store the progress. */
  deadline: Date;
  /** The caller's clock for what is written (tests and `npm run job -- --now` set it). */
  now?: Date;
  /** How long the lease is held at most (it is released as soon as the run ends). */
  leaseMs?: number;
  /** Compute nothing when the stored snapshot was computed after this instant (someone computed meanwhile). */
  unlessComputedAfter?: Date;
}

export async function computeSiteResults(site: Site, options: ComputeOptions): Promise<ComputeOutcome> {
  const now = options.now ?? new Date();
  const owner = randomBytes(9).toString('base64url');
  const leaseUntil = new Date(Math.max(options.deadline.getTime(), Date.now()) + (options.leaseMs ?? 60_000));
  if (!(await takeResultsLease(site.id, owner, now, leaseUntil))) return 'busy';
  let released = false;
  try {
    if (options.unlessComputedAfter) {
      const current = await getResultsHead(site.id);
      if (current && Date.parse(current.computedAt) > options.unlessComputedAfter.getTime()) {
        await releaseResultsLease(site.id, owner, { unchanged: true });
        released = true;
        return 'done';
      }
    }
    const state = await getResultsState(site.id);
    const readAt = new Date();
    const coveredUntil = new Date(readAt.getTime() - SETTLE_MS).toISOString();
    // Counted before the ballots are read, and they are read consistently: every entry counted here is in them.
    const settling = await countLogEntriesAfter(site.id, coveredUntil);
    const [ideas, ballots, checkpoint] = await Promise.all([readSiteIdeas(site.id), readSiteBallots(site.id, 'votes', true), latestSignedCheckpoint(site.id)]);
    const newest = await newestLogEntryAt(site.id);
    const progress = progressOf(state?.progress);
    const step = computeResultsWithin(
      {
        config: site.config.votes,
        ideas: ideas.map(resultsIdeaOf),
        // A ballot emptied by anonymization or idea deletions is no vote: it is not counted.
        ballots: ballots.map((ballot) => ({ votes: entryVotes(ballot.votes) })).filter((ballot) => ballot.votes.length > 0),
        computedAt: readAt.toISOString(),
      },
      { stop: () => Date.now() >= options.deadline.getTime(), progress },
    );
    if (step.kind === 'progress') {
      await releaseResultsLease(site.id, owner, { progress: JSON.stringify(step.progress) });
      released = true;
      return 'unfinished';
    }
    const matches = checkpoint !== undefined && (newest === undefined || newest <= checkpoint.cut);
    const body: ResultsSnapshotBody = { ...step.results, checkpoint: matches ? { id: checkpoint.id, treeSize: checkpoint.treeSize, root: checkpoint.root } : null };
    const packed = packSnapshot(body);
    const replaces = await getResultsHead(site.id);
    await writeResultsSnapshot(
      {
        head: { siteId: site.id, etag: packed.etag, computedAt: body.computedAt, coveredUntil, settling, ballots: body.ballots, generation: randomBytes(6).toString('base64url') },
        chunks: packed.chunks,
        replaces: replaces ? { generation: replaces.generation, chunks: replaces.chunks } : null,
      },
      now,
    );
    await releaseResultsLease(site.id, owner, { coveredFrom: coveredUntil });
    released = true;
    return 'done';
  } finally {
    if (!released) await releaseResultsLease(site.id, owner, { unchanged: true }).catch(() => undefined);
  }
}
