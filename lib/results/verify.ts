/**
 * `npm run verify-votes -- --site N` (CONTRACT: exit 0 when every tally, ballot chain and the latest
 * checkpoint agree, 1 and a report otherwise). It audits the site's vote log as a Certificate
 * Transparency monitor would (lib/vote-record/audit.ts), then holds the live state to it:
 *
 * 1. The log: every entry sealed with the chain key and dated no later than now, each ballot's versions
 *    chained, every leaf an entry in log order, every checkpoint signed with the published key, its root
 *    and ballot count what the leaves give, each extending the one before (RFC 9162 consistency proof).
 * 2. The ballots: each item of the ballot range is the one ballot of its user (its user's key, this
 *    site, no user twice); each ballot's state is its latest entry (same mac, same votes); an entry without a
 *    ballot is a problem. A ballot with votes and no entry is one written behind the log once a signed
 *    checkpoint says the log holds every ballot of the site (the `complete` line, or a pinned copy
 *    that says it): a problem. Before that it may be from before the log began: a note
 *    (`npm run migrate` seals it, and the next checkpoint can say complete).
 * 3. The tallies: the counts recomputed from the ballots equal the stored ones, per idea and opinion
 *    (a vote a moderator rejected counts nowhere: its rejection is an entry of the log like any version),
 *    every item of the tally range, gone ones too; and each is in the order by votes (GSI3) exactly
 *    when it is votable, at its own count, so no list or export shows a count the check did not see.
 *
 * What each tampering a writer with database access (but not the keys) can try comes out as: a forged
 * new version or an edited old one -> its mac fails; a deleted version -> the chain breaks or a leaf
 * has no entry; a reordered log -> leaves out of order and roots that differ from the signed ones; an
 * edited tally -> the tally differs from the ballots; a ballot rewritten in place -> it differs from
 * its entry; a ballot added without entries (tallies moved along) once a checkpoint says the log holds
 * every ballot -> it has no log entry; a replaced checkpoint, or one signed without the `complete`
 * line after one with it -> its signature fails, or it drops the line; a copy of a voter's ballot under
 * another key, or one from another site -> it is not in its place; a results snapshot with other
 * counts -> it differs from the log, or (ballots from before the log) from the table's ballots
 * (lib/results/verify-snapshot.ts).
 */
import { auditVoteLog } from '#lib/vote-record/audit';
import { sealedOf } from '#lib/vote-record/entry-item';
import { GENESIS_MAC, macIsValid, type SealedEntry } from '#lib/vote-record/entry';
import { voteChainKey, votePublicKeys } from '#lib/vote-record/keys';
import type { SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { HASH_BYTES } from '#lib/vote-record/tiles';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { ballotKeys } from '#lib/store/ballots/keys';
import { readSiteBallotsKeyed, type KeyedBallot } from '#lib/store/ballots/site-ranges';
import { rankAsRead, readSiteTalliesChecked, type AuditedTally } from '#lib/store/ideas/tallies';
import { readAllLogEntriesChecked, readAllSignedCheckpointsChecked, readDataTiles } from '#lib/store/vote-log/log';
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

/**
 * Each item of the site's ballot range is the one ballot of its user: stored under
 * ballotKeys.ballot(site, its userId), of this site, and no user twice. A copy of a voter's ballot
 * under another key (its entries match, so nothing else tells it apart), a ballot copied from
 * another site, or an item a writer put in the range under a made-up key is a problem; so is an item
 * that does not match the ballot's schema (left out of everything else).
 */
export function checkBallotKeys(siteId: number, items: readonly KeyedBallot[]): { problems: string[]; placed: BallotItem[] } {
  const problems: string[] = [];
  const placed: BallotItem[] = [];
  const users = new Map<number, number>();
  for (const item of items) {
    if ('malformed' in item) {
      problems.push(`a malformed item in the ballot range: ${item.malformed.key} (${item.malformed.problem})`);
      continue;
    }
    const { sk, ballot } = item;
    users.set(ballot.userId, (users.get(ballot.userId) ?? 0) + 1);
    const misplaced: string[] = [];
    if (ballot.siteId !== siteId) misplaced.push(`it names site ${ballot.siteId}`);
    if (!ballotKeys.isBallotOf(siteId, ballot.userId, sk)) misplaced.push(`it is stored under ${sk}, not its user's ballot key`);
    if (misplaced.length > 0) problems.push(`the item ${sk} in the ballot range (user ${ballot.userId}) is not a ballot of this site: ${misplaced.join(', ')}`);
    else placed.push(ballot);
  }
  for (const [userId, n] of users) if (n > 1) problems.push(`user ${userId} has ${n} items in the ballot range: one ballot per user`);
  return { problems, placed };
}

/**
 * The tally items as the readers of GSI3 (the order by votes, the exports) would show them: a votable
 * tally is listed at its own `yes` count, a gone one not at all (its idea is being deleted; every
 * write that marks it gone takes its GSI3 keys in the same update). Every item's counts, gone or not,
 * are held to the ballots by `compareTallies`: the delete cascade moves them down with the votes it
 * takes out.
 */
function checkTallyListing(items: readonly AuditedTally[]): string[] {
  const problems: string[] = [];
  for (const item of items) {
    const yes = item.tally['yes'] ?? 0;
    if (item.gone && item.listed.inSiteOrder) problems.push(`the tally ${item.key} of idea ${item.ideaId} is marked gone yet keeps its place in the order by votes`);
    else if (!item.gone && !item.listed.inSiteOrder) problems.push(`the tally ${item.key} of idea ${item.ideaId} is not in the order by votes: lists and exports show no count for it`);
    else if (!item.gone && item.listed.rank !== rankAsRead(yes, item.ideaId)) problems.push(`the tally ${item.key} of idea ${item.ideaId} is in the order by votes at rank ${item.listed.rank ?? 'none'}, not at its ${yes} 'yes'`);
  }
  return problems;
}

/**
 * What the snapshot is held to: the log's entries and, for each ballot with votes and no entry yet
 * (from before the log), its state in the table as if it were an entry written when it was last
 * written (such a ballot is never written again without being sealed). The ballots themselves are
 * held to the tallies, so the snapshot is always checked against something.
 */
function snapshotEntries(siteId: number, valid: readonly SealedEntry[], ballots: readonly BallotItem[]): SealedEntry[] {
  const logged = new Set(valid.map((entry) => entry.userId));
  const fromTable = ballots
    .filter((ballot) => !logged.has(ballot.userId) && entryVotes(ballot.votes).length > 0)
    .map((ballot): SealedEntry => ({ siteId, userId: ballot.userId, version: ballot.version, prevMac: GENESIS_MAC, votes: entryVotes(ballot.votes), writtenAt: ballot.updatedAt, mac: '' }));
  return [...valid, ...fromTable];
}

export async function verifySiteVotes(siteId: number, now = new Date(), options: { pinned?: SignedCheckpoint } = {}): Promise<VerifyReport> {
  const [items, tallyRead, entryRead, tileRead, checkpointRead] = await Promise.all([
    readSiteBallotsKeyed(siteId),
    readSiteTalliesChecked(siteId),
    readAllLogEntriesChecked(siteId),
    readDataTiles(siteId),
    readAllSignedCheckpointsChecked(siteId),
  ]);
  const { records: entries } = entryRead;
  const { records: checkpoints } = checkpointRead;
  // Items a writer made unreadable are reported and left out; what they held shows up as what is missing.
  const stored: Tally = new Map(tallyRead.items.map((item) => [item.ideaId, item.tally]));
  const unreadable = [
    ...tallyRead.malformed.map(({ key, problem }) => `a malformed item among the tallies: ${key} (${problem})`),
    ...entryRead.malformed.map(({ key, problem }) => `a malformed item in the vote log's entries: ${key} (${problem})`),
    ...tileRead.malformed.map(({ key, problem }) => `a malformed item in the vote log's tiles: ${key} (${problem})`),
    ...checkpointRead.malformed.map(({ key, problem }) => `a malformed item in the vote log's checkpoints: ${key} (${problem})`),
  ];
  const leaves: Buffer[] = [];
  for (const tile of [...tileRead.records].sort((a, b) => a.index - b.index)) {
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
  // A malformed item moves no tally the table could show (its votes cannot be read): it is a problem of its own.
  const ballots = items.flatMap((item) => ('ballot' in item ? [item.ballot] : []));
  const keyed = checkBallotKeys(siteId, items);
  // Every item of the range counts toward the tallies it would move; those not in place are problems above.
  const counted = countVotes(ballots.flatMap((ballot) => entryVotes(ballot.votes)));
  const valid = entries.map(sealedOf).filter((entry) => macIsValid(chainKey, entry));
  const against = compareBallots(keyed.placed, audit.latest, audit.complete);
  // Ballots from before the log have no entries: the snapshot is held to their table state then.
  const snapshot = against.unlogged > 0 ? await verifyResultsSnapshot(siteId, snapshotEntries(siteId, valid, keyed.placed), { fromTable: true }) : await verifyResultsSnapshot(siteId, valid);
  const problems = [...unreadable, ...audit.problems, ...keyed.problems, ...against.problems, ...compareTallies(counted, stored), ...checkTallyListing(tallyRead.items), ...snapshot.problems];
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
