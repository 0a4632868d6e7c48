/**
 * vote-checkpoints: per due site, one signed checkpoint of its vote log (lib/jobs/sequence-log.ts): the
 * entries written up to a minute before the run, in log order, appended to the log's Merkle tree, the
 * root signed with the signing key. Written at every run, whatever voters do meanwhile: nothing a voter
 * sends can hold a checkpoint back (an entry written during the run goes into the next one).
 *
 * Which sites: no item is written by every vote round, so the job does not learn of new entries from a
 * per-round marker; the marker is due at every site create/update and, after each run, again an hour
 * later while votes can change. Once the project has ended and a run found nothing new (and the log
 * is not still looking for ballots without a seal), the marker goes off the index; a site update,
 * `npm run migrate`, or an entry written outside a vote round (a review, an anonymization, an idea
 * delete's cascade, an import: lib/votes/late-entry.ts) brings it back. One unit of the run's budget
 * per checkpoint.
 *
 * One busy site cannot hold back the others: a checkpoint takes at most SITE_SHARE_ENTRIES entries
 * (its cut moves back before the first one left out). A site with more waits until every due site had
 * its checkpoint, then goes on, one share per unit, with what is left of the run; what is still left
 * then stays due for the next run, first in its order.
 *
 * Every run publishes VoteCheckpointLagSeconds (alarmed: resources/operations.yml), the longest time,
 * over the sites due, since the log was last cut: about a minute on schedule; for a site left behind,
 * the age of its oldest entry no checkpoint covers yet (an upper bound for a site the run did not reach);
 * for a site another run holds or that could not be sequenced, the age of its latest signed cut.
 */
import { addDays } from '#lib/sites/dates';
import { Budget, jobLimits, runOverDueSites, type JobOptions, type JobReport, type SiteContext } from '#lib/jobs/run';
import { latestSignedCut, sequenceSiteLog, type SequenceOutcome } from '#lib/jobs/sequence-log';
import { projectHasEnded } from '#lib/sites/project';
import { dueJobMarkers, makeJobDueBy, updateJobMarker } from '#lib/store/jobs/jobs';
import { newestLogEntryAt } from '#lib/store/vote-log/log';
import { LOG_SETTLE_MS } from '#lib/vote-record/schedule';
import { CorruptRecordError } from '#lib/errors';

/** How long after a run the job looks at a site again while votes can change. */
const INTERVAL_DAYS = 1 / 24;
/** A site whose log another run holds: tried again this soon. */
const BUSY_RETRY_DAYS = 5 / 1440;
/** Entries one checkpoint takes at most: a few seconds of work (reads, tiles, receipt index writes). */
const SITE_SHARE_ENTRIES = 10_000;
/** Still-due markers read after the run to bound the lag of sites it did not reach. */
const LAG_PROBE = 25;

interface CheckpointRunOptions extends JobOptions {
  /** Entries per checkpoint (tests make it small). */
  share?: number;
  /** Ballots a checkpoint looks through for one without a seal (tests make it small). */
  scanBallots?: number;
}

/** What the run learned of how far behind each site's checkpoints are. */
class Lag {
  readonly seconds = new Map<number, number>();
  constructor(private readonly now: string) {}
  /** A site whose log is cut at `cut` now. */
  cutAt(siteId: number, cut: string): void {
    if (cut !== '') this.seconds.set(siteId, Math.max(0, (Date.parse(this.now) - Date.parse(cut)) / 1000));
  }
  /** A site the run did not sequence: its last checkpoint is at most an interval before its marker fell due. */
  dueSince(siteId: number, dueAt: string): void {
    if (this.seconds.has(siteId)) return;
    this.seconds.set(siteId, Math.max(0, (Date.parse(this.now) - Date.parse(dueAt)) / 1000 + INTERVAL_DAYS * 86_400));
  }
  max(): number {
    return Math.round(Math.max(0, ...this.seconds.values()));
  }
}

export async function run(options: CheckpointRunOptions): Promise<JobReport> {
  const now = options.now.toISOString();
  const share = options.share ?? SITE_SHARE_ENTRIES;
  const sequence = (siteId: number) => sequenceOrReport(siteId, new Date(now), { maxEntries: share, scanBallots: options.scanBallots });
  const lag = new Lag(now);
  const behind: { ctx: SiteContext; outcome: SequenceOutcome }[] = [];
  const report = await runOverDueSites('vote-checkpoints', options, (ctx) => checkpoint(ctx, sequence, lag, behind));

  // The sites that used their whole share go on, in turn, with what the run has left.
  const budget = new Budget(jobLimits(options).units - report.units, options.remainingMs);
  let turn = behind;
  while (turn.length > 0 && !budget.exhausted()) {
    const next: typeof behind = [];
    for (const item of turn) {
      if (!budget.take()) {
        next.push(item);
        continue;
      }
      item.outcome = await sequence(item.ctx.site.id);
      report.units += 1;
      record(item.ctx, item.outcome, lag);
      if (item.outcome.more && !item.outcome.busy) next.push(item);
      else await settle(item.ctx, item.outcome);
    }
    turn = next;
  }
  // Still behind at the end of the run: due again at once, so the next run takes them first.
  for (const { ctx } of turn) {
    ctx.report.nextDueAt = now;
    await updateJobMarker(ctx.marker, { dueAt: now });
  }
  if (turn.length > 0) report.more = true;

  // Sites the run did not reach (only when it stopped at a bound: otherwise it saw every due marker).
  if (report.more) for (const marker of await dueJobMarkers('vote-checkpoints', now, LAG_PROBE)) if (marker.dueAt !== null) lag.dueSince(marker.siteId, marker.dueAt);
  return { ...report, gauges: { VoteCheckpointLagSeconds: lag.max() } };
}

/**
 * A site's checkpoint, or, when an item of its log the run cannot do without (the head, an edge tile)
 * is malformed, no checkpoint and that item reported: the run goes on with the other sites, and the
 * site stays due, reported at every run until the item is repaired.
 */
async function sequenceOrReport(siteId: number, now: Date, options: { maxEntries: number; scanBallots: number | undefined }): Promise<SequenceOutcome & { unreadable?: string }> {
  try {
    return await sequenceSiteLog(siteId, now, options);
  } catch (err) {
    if (!(err instanceof CorruptRecordError)) throw err;
    // No checkpoint this run: the lag counts from the latest signed one (the stalled site raises the alarm).
    const cut = await latestSignedCut(siteId);
    return { checkpointId: null, appended: 0, treeSize: 0, forged: [], lateMigrations: [], busy: false, cut, more: false, complete: false, unsealedFound: false, misplaced: [], malformedBallots: [], malformedEntries: [], repaired: [], unreadable: err.message };
  }
}

function record({ report }: SiteContext, outcome: SequenceOutcome & { unreadable?: string }, lag: Lag): void {
  const failures = [
    ...(outcome.unreadable !== undefined ? [`no checkpoint: ${outcome.unreadable}; run verify-votes, then repair it`] : []),
    ...outcome.repaired,
    ...outcome.forged.map((entry) => `entry not sealed by the chain key, left out of the log: ${entry}`),
    ...outcome.lateMigrations.map((entry) => `entry sealed by npm run migrate after the log held every ballot, left out of the log (a ballot written behind it; run verify-votes): ${entry}`),
    ...outcome.malformedEntries.map((item) => `a malformed item in the vote log's entries, left out of the log: ${item}; run verify-votes, then remove it`),
    ...outcome.misplaced.map((sk) => `item ${sk} in the ballot range is not its user's ballot (no write puts one there): run verify-votes, then remove it`),
    ...outcome.malformedBallots.map((item) => `a malformed item in the ballot range: ${item}; run verify-votes, then remove it`),
  ];
  // A site sequenced more than once in a run (past its share) looks at the same ballots again: each item once.
  for (const failure of failures) if (!report.failed.includes(failure)) report.failed.push(failure);
  if (outcome.checkpointId !== null) report.done.push(`checkpoint ${outcome.checkpointId} (${outcome.treeSize} entries, ${outcome.appended} new${outcome.more ? ', more left' : ''}${completenessNote(outcome)})`);
  // Busy or stalled sites count too, from their latest signed cut: a log held or broken for good raises the alarm.
  lag.cutAt(report.siteId, outcome.cut);
}

/** What the checkpoint says of the ballots the log holds, for the operator while it does not hold them all. */
function completenessNote({ complete, unsealedFound }: SequenceOutcome): string {
  if (complete) return '';
  return unsealedFound ? '; ballots without a seal remain: run verify-votes first (a ballot on a site created after the log began was written behind it), then npm run migrate seals those from before the vote log' : '; still looking for ballots from before the vote log';
}

/** The marker moved on after the site's last checkpoint of this run. */
async function settle({ marker, site, now, report }: SiteContext, outcome: SequenceOutcome): Promise<void> {
  if (outcome.busy) report.nextDueAt = addDays(now, BUSY_RETRY_DAYS);
  // An ended project's site rests once nothing new came in, unless its log is still looking for ballots
  // without a seal (it goes on at the next run; one it found waits for `npm run migrate`, which makes
  // the job due again).
  else report.nextDueAt = projectHasEnded(site.config) && outcome.appended === 0 && (outcome.complete || outcome.unsealedFound) ? null : addDays(now, INTERVAL_DAYS);
  const moved = await updateJobMarker(marker, { dueAt: report.nextDueAt });
  if (!moved || report.nextDueAt !== null) return;
  // An entry written after this run's cut (a review or an anonymization within its settle minute) made
  // the job due while the marker was still due from before, so that write left it: look once the marker
  // is off, and put it back for that entry.
  const newest = await newestLogEntryAt(site.id);
  if (newest !== undefined && newest > outcome.cut) {
    report.nextDueAt = new Date(Date.parse(newest) + LOG_SETTLE_MS).toISOString();
    await makeJobDueBy(site.id, 'vote-checkpoints', report.nextDueAt);
  }
}

async function checkpoint(ctx: SiteContext, sequence: (siteId: number) => Promise<SequenceOutcome>, lag: Lag, behind: { ctx: SiteContext; outcome: SequenceOutcome }[]): Promise<void> {
  const { marker, now, budget, report } = ctx;
  if (!budget.take()) {
    if (marker.dueAt !== null) lag.dueSince(marker.siteId, marker.dueAt);
    report.nextDueAt = now;
    await updateJobMarker(marker, { dueAt: now });
    return;
  }
  const outcome = await sequence(ctx.site.id);
  record(ctx, outcome, lag);
  // Past its share: its marker stays as read until the second turn settles it.
  if (outcome.more && !outcome.busy) {
    report.nextDueAt = now;
    behind.push({ ctx, outcome });
    return;
  }
  await settle(ctx, outcome);
}
