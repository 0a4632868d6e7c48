/**
 * `npm run verify-votes -- --site N` (CONTRACT: exit 0 when every tally, ballot chain and the latest
 * checkpoint agree, 1 and a report otherwise). It audits the site's vote log as a Certificate
 * Transparency monitor would (lib/vote-record/audit.ts), then holds the live state to it:
 *
 * 1. The log: every entry sealed with the chain key and dated no later than now, each ballot's versions
 *    chained, every leaf an entry in log order, every checkpoint signed with the published key, its root
 *    and ballot count what the leaves give, each extending the one before (RFC 9162 consistency proof).
 * 2. The ballots: each ballot's state is its latest entry (same mac, same votes); an entry without a
 *    ballot is a problem. A ballot with votes and no entry is one written behind the log once a signed
 *    checkpoint says the log holds every ballot of the site (the `complete` line, or a pinned copy
 *    that says it): a problem. Before that it may be from before the log began: a note
 *    (`npm run migrate` seals it, and the next checkpoint can say complete).
 * 3. The tallies: the counts recomputed from the ballots equal the stored ones, per idea and opinion
 *    (a vote a moderator rejected counts nowhere: its rejection is an entry of the log like any version).
 *
 * What each tampering a writer with database access (but not the keys) can try comes out as: a forged
 * new version or an edited old one -> its mac fails; a deleted version -> the chain breaks or a leaf
 * has no entry; a reordered log -> leaves out of order and roots that differ from the signed ones; an
 * edited tally -> the tally differs from the ballots; a ballot rewritten in place -> it differs from
 * its entry; a ballot added without entries (tallies moved along) once a checkpoint says the log holds
 * every ballot -> it has no log entry; a replaced checkpoint, or one signed without the `complete`
 * line after one with it -> its signature fails, or it drops the line; a results snapshot with other
 * counts -> it differs from the log (lib/results/verify-snapshot.ts).
 */
import { auditVoteLog } from '#lib/vote-record/audit';
import { sealedOf } from '#lib/vote-record/entry-item';
import { macIsValid } from '#lib/vote-record/entry';
import { voteChainKey, votePublicKeys } from '#lib/vote-record/keys';
import type { SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { HASH_BYTES } from '#lib/vote-record/tiles';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { readSiteBallots } from '#lib/store/ballots/site-ranges';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { readAllLogEntries, readAllSignedCheckpoints, readDataTiles } from '#lib/store/vote-log/log';
import { entryVotes, rejectedEntryVotes } from '#lib/votes/seal';
import { countVotes } from '#lib/votes/tally';
import { verifyResultsSnapshot } from '#lib/results/verify-snapshot';
import type { Tally } from '#lib/votes/types';

interface VerifyReport {
  siteId: number;
  ballots: number;
  /** Empty when everything agrees. */
  problems: string[];
  /** What was found about the log and the latest checkpoint. */
  checkpoint: string;
}

export function compareTallies(counted: Tally, stored: Tally): string[] {
  const problems: string[] = [];
  const ideaIds = [...new Set([...counted.keys(), ...stored.keys()])].sort((a, b) => a - b);
  for (const ideaId of ideaIds) {
    const a = counted.get(ideaId) ?? {};
    const b = stored.get(ideaId) ?? {};
    for (const opinion of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const fromBallots = a[opinion] ?? 0;
      const inTally = b[opinion] ?? 0;
      if (fromBallots !== inTally) problems.push(`tally of idea ${ideaId} '${opinion}': stored ${inTally}, ballots hold ${fromBallots}`);
    }
  }
  return problems;
}

const votesKey = (votes: readonly { ideaId: number; opinion: string }[]) =>
  JSON.stringify([...votes].sort((a, b) => a.ideaId - b.ideaId || (a.opinion < b.opinion ? -1 : 1)).map((v) => [v.ideaId, v.opinion]));

const rejectedKey = (votes: readonly { ideaId: number; opinion: string; by: number | null }[] | undefined) =>
  JSON.stringify([...(votes ?? [])].sort((a, b) => a.ideaId - b.ideaId).map((v) => [v.ideaId, v.opinion, v.by]));

/**
 * Each ballot against its latest log entry: the votes that count and, apart, those a moderator
 * rejected (a rejection or reinstatement written behind the log is a ballot edited in place).
 */
export function compareBallots(
  ballots: readonly BallotItem[],
  latest: ReadonlyMap<number, { mac: string; version: number; votes: readonly { ideaId: number; opinion: string }[]; rejected?: readonly { ideaId: number; opinion: string; by: number | null }[] | undefined }>,
  /** The first checkpoint that says the log holds every ballot (undefined: none says so yet). */
  complete?: { id: number },
): { problems: string[]; unlogged: number } {
  const problems: string[] = [];
  let unlogged = 0;
  const seen = new Set<number>();
  for (const ballot of ballots) {
    seen.add(ballot.userId);
    const entry = latest.get(ballot.userId);
    if (!entry) {
      if (Object.keys(ballot.votes ?? {}).length === 0) continue;
      if (complete) problems.push(`the ballot of user ${ballot.userId} (version ${ballot.version}) has no log entry: written behind the log (checkpoint ${complete.id} says the log holds every ballot)`);
      else unlogged += 1;
      continue;
    }
    const who = `the ballot of user ${ballot.userId} (version ${ballot.version})`;
    if (ballot.hash !== entry.mac || ballot.version !== entry.version) problems.push(`${who} is not its latest log entry (version ${entry.version}): written behind the log`);
    else if (votesKey(entryVotes(ballot.votes)) !== votesKey(entry.votes)) problems.push(`${who} holds other votes than its log entry: edited in place`);
    else if (rejectedKey(rejectedEntryVotes(ballot.votes)) !== rejectedKey(entry.rejected)) problems.push(`${who} holds other rejected votes than its log entry: a rejection edited in place`);
  }
  for (const [userId, entry] of latest) {
    if (!seen.has(userId) && entry.votes.length > 0) problems.push(`the log holds votes of user ${userId} (version ${entry.version}) whose ballot is gone`);
  }
  return { problems, unlogged };
}

export async function verifySiteVotes(siteId: number, now = new Date(), options: { pinned?: SignedCheckpoint } = {}): Promise<VerifyReport> {
  const [ballots, stored, entries, tiles, checkpoints] = await Promise.all([
    readSiteBallots(siteId, 'all', true),
    readSiteTallies(siteId, { consistent: true }),
    readAllLogEntries(siteId),
    readDataTiles(siteId),
    readAllSignedCheckpoints(siteId),
  ]);
  const leaves: Buffer[] = [];
  for (const tile of [...tiles].sort((a, b) => a.index - b.index)) {
    for (let i = 0; i < tile.data.length; i += HASH_BYTES) leaves.push(Buffer.from(tile.data.subarray(i, i + HASH_BYTES)));
  }
  const chainKey = voteChainKey();
  const audit = auditVoteLog({
    siteId,
    now: now.toISOString(),
    chainKey,
    publicKeys: votePublicKeys(),
    entries: entries.map(sealedOf),
    leaves,
    checkpoints,
    pinned: options.pinned,
  });
  const counted = countVotes(ballots.flatMap((ballot) => entryVotes(ballot.votes)));
  const sealed = entries.map(sealedOf);
  const against = compareBallots(ballots, audit.latest, audit.complete);
  // Ballots from before the log have no entries: the log cannot give the snapshot's counts then. Once
  // a checkpoint says the log holds every ballot, none is left out, and the snapshot is checked.
  const snapshot =
    against.unlogged > 0
      ? { problems: [], notes: ['the results snapshot is not checked until every ballot is in the log'] }
      : await verifyResultsSnapshot(siteId, sealed.filter((entry) => macIsValid(chainKey, entry)));
  const problems = [...audit.problems, ...against.problems, ...compareTallies(counted, stored), ...snapshot.problems];
  const notes = [...audit.notes, ...snapshot.notes];
  if (against.unlogged > 0) notes.push(`${against.unlogged} ballot(s) from before the vote log (npm run migrate seals them)`);
  notes.push(audit.complete ? `the log holds every ballot of the site since checkpoint ${audit.complete.id}` : 'no checkpoint says yet that the log holds every ballot of the site');
  const latest = audit.checkpoint;
  const head = latest ? `checkpoint ${latest.id} holds ${latest.treeSize} entries of ${latest.ballots} ballot(s), signed by ${latest.keyId}` : 'no signed checkpoint yet';
  return { siteId, ballots: ballots.length, problems, checkpoint: [head, ...notes].join('; ') };
}

export function formatVerifyReport(report: VerifyReport): string {
  const head = `site ${report.siteId}: ${report.ballots} ballot(s); ${report.checkpoint}`;
  if (report.problems.length === 0) return `${head}\nOK: the vote log, its checkpoints, the ballots and the tallies agree`;
  return [head, `${report.problems.length} problem(s):`, ...report.problems.map((p) => `  - ${p}`)].join('\n');
}
