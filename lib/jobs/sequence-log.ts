/**
 * One checkpoint of a site's vote log (docs/results.md "The vote record"), as the vote-checkpoints job
 * runs it per site:
 *
 * 1. take the log's lease (one sequencer per site at a time; a crashed run's lease runs out);
 * 2. finish indexing the receipts of the previous checkpoint if a run stopped before that;
 * 3. cut at SETTLE before the clock, the run's or the wall clock's if that is earlier (every round
 *    stamped before then has committed; a run told a later time must not cut past rounds still to
 *    come, which would then be before its cut and never sequenced), and read the
 *    entries written since the previous cut (the head's, repaired from its signed checkpoint when a
 *    writer edited it), by time written: one consistent Query per 1 MB, at most `maxEntries` (then the
 *    cut moves back to the last entry taken before the first one left out: `shareCut`), then put them in
 *    batch order (by receipt, so a leaf's index tells nothing of when in the batch it was written);
 * 4. check each entry's mac with the chain key: a forged entry is left out and reported (it stays in
 *    the table, where the audit reports it too), never sequenced; so is an item of the entry range that
 *    does not match the entry's schema (malformed);
 * 5. say whether the log holds every ballot of the site (lib/jobs/log-completeness.ts: carried from
 *    the previous checkpoint once it did, else one bounded look for ballots without a seal);
 * 6. append the receipts to the tiles (the edge tiles read, cut back to the published size), compute
 *    the new root from the head's right edge, sign the checkpoint, and publish it with the head in one
 *    transaction conditioned on the lease and the size it extends;
 * 7. index the new receipts (leaf index and checkpoint), mark the results stale and make the results
 *    job due a debounce later.
 * A checkpoint is signed at every run, new entries or not: a checkpoint covers the log up to its cut
 * and is written on schedule whatever voters do (nothing they send can hold it back: an entry written
 * meanwhile goes into the next one).
 */
import { randomBytes } from 'node:crypto';
import { signCheckpoint, signedForm } from '#lib/vote-record/checkpoint';
import { batchOrder, GENESIS_MAC, macIsValid, type SealedEntry } from '#lib/vote-record/entry';
import { sealedOf } from '#lib/vote-record/entry-item';
import { signerOf } from '#lib/vote-record/key-set';
import { voteChainKey, votePublicKeys, voteSigningKey } from '#lib/vote-record/keys';
import { completenessOf } from '#lib/jobs/log-completeness';
import { frontierRoot, type Frontier } from '#lib/vote-record/merkle';
import { appendToTiles, edgeTiles, HASH_BYTES, tileKey, TILE_WIDTH, type Tile } from '#lib/vote-record/tiles';
import { makeJobDueBy } from '#lib/store/jobs/jobs';
import { LOG_SETTLE_MS } from '#lib/vote-record/schedule';
import { markResultsStale } from '#lib/store/results/snapshots';
import {
  AFTER_RECEIPTS,
  finishIndexing,
  getSignedCheckpoint,
  latestSignedCheckpoint,
  publishSignedCheckpoint,
  readLogEntries,
  readLogTiles,
  releaseLogLease,
  takeLogLease,
  writeLogTiles,
  writeReceiptIndex,
  voteLogKeys,
  type LogEntryRead,
  type LogHead,
} from '#lib/store/vote-log/log';
import { isCanonicalInstant } from '#schemas/stored/read';
import { CorruptRecordError } from '#lib/errors';

/** A burst of votes makes one results computation: the results job is due this long after new entries. */
const RESULTS_DEBOUNCE_MS = 120_000;
/** Entries sequenced per checkpoint at most (the rest go into the next one). */
const MAX_ENTRIES = 50_000;
const LEASE_MS = 300_000;

export interface SequenceOutcome {
  checkpointId: number | null;
  appended: number;
  treeSize: number;
  /** Entries left out because their mac is not the chain key's. */
  forged: string[];
  /** Migration entries left out because the log already held every ballot when they were written. */
  lateMigrations: string[];
  /** Another run holds the log. */
  busy: boolean;
  /** The log's cut after this run (every entry written up to it is in a checkpoint; '' before the first). */
  cut: string;
  /** Entries past `maxEntries` were left for the next checkpoint (the cut moved back before them). */
  more: boolean;
  /** The checkpoint says the log holds every ballot of the site. */
  complete: boolean;
  /** A ballot without a seal is still in the table (`npm run migrate` seals it). */
  unsealedFound: boolean;
  /** Keys of items in the ballot range that are not their user's ballot (no ballot: a writer put them there). */
  misplaced: string[];
  /** Items without a seal under a user's ballot key that do not match the ballot's schema (`PK/SK (problem)`): no ballot either. */
  malformedBallots: string[];
  /** Items of the entry range read for this checkpoint that are no entry (`PK/SK (problem)`): left out of the log. */
  malformedEntries: string[];
  /** What of the log head the run found edited and repaired before going on. */
  repaired: string[];
}

const entryName = (e: SealedEntry) => `user ${e.userId} version ${e.version} (${e.mac.slice(0, 16)}...)`;

const frontierOf = (head: LogHead): Frontier => ({ size: head.size, hashes: head.frontier.map((hex) => Buffer.from(hex, 'hex')) });

/** The edge tiles as the published size has them (a run that stopped after writing tiles may have grown them). */
async function publishedEdge(siteId: number, size: number): Promise<Map<string, Tile>> {
  const ids = edgeTiles(size);
  const stored = new Map((await readLogTiles(siteId, ids)).map((tile) => [tileKey(tile), tile]));
  const edge = new Map<string, Tile>();
  for (const id of ids) {
    const width = Math.floor(size / TILE_WIDTH ** id.level) % TILE_WIDTH;
    const tile = stored.get(tileKey(id));
    if (!tile || tile.data.length < width * HASH_BYTES) {
      // The log cannot grow past a tile a writer cut or removed: the site's run reports it (lib/jobs/vote-checkpoints.ts).
      const { PK, SK } = voteLogKeys.tile(siteId, id.level, id.index);
      throw new CorruptRecordError('vote log tile', `${PK}/${SK}`, { path: 'data', message: tile ? 'is shorter than the published log' : 'is missing' });
    }
    edge.set(tileKey(id), { ...id, data: tile.data.subarray(0, width * HASH_BYTES) });
  }
  return edge;
}

/** Indexes receipts [from, to) of checkpoint `checkpointId` from the data tiles (a run that stopped after publishing). */
async function indexFromTiles(siteId: number, from: number, to: number, checkpointId: number): Promise<void> {
  const ids = [];
  for (let tile = Math.floor(from / TILE_WIDTH); tile * TILE_WIDTH < to; tile += 1) ids.push({ level: 0, index: tile });
  const tiles = await readLogTiles(siteId, ids);
  const receipts: { receipt: string; leafIndex: number; checkpointId: number }[] = [];
  for (const tile of tiles) {
    for (let i = 0; i < tile.data.length / HASH_BYTES; i += 1) {
      const leafIndex = tile.index * TILE_WIDTH + i;
      if (leafIndex >= from && leafIndex < to) receipts.push({ receipt: tile.data.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES).toString('hex'), leafIndex, checkpointId });
    }
  }
  await writeReceiptIndex(siteId, receipts);
}

/**
 * The cut of the site's latest signed checkpoint ('' without one, or when it cannot be read): how far the
 * record reaches when this run could not sequence the site. Read only off the normal path.
 */
export async function latestSignedCut(siteId: number): Promise<string> {
  try {
    return (await latestSignedCheckpoint(siteId))?.cut ?? '';
  } catch (err) {
    if (err instanceof CorruptRecordError) return '';
    throw err;
  }
}

/** Where a run at `now` may cut: SETTLE before its clock, and never past SETTLE before the wall clock. */
const cutFor = (now: Date): string => new Date(Math.min(now.getTime(), Date.now()) - LOG_SETTLE_MS).toISOString();

/**
 * Where a checkpoint past its share cuts, given the entries read in log order and `limit`, the share:
 * the time of the last entry taken (a well-formed one, under a key holding a canonical instant) whose
 * whole millisecond lies before the first item left out. So the checkpoint holds every entry whose key
 * is at or before its cut: a made-up key's text never sets the cut (it may parse to a time far from
 * where it sorts). Null when no entry taken gives such a time.
 */
function shareCut(items: readonly LogEntryRead[], limit: number): string | null {
  const firstLeft = items[limit]!.sk;
  for (let i = limit - 1; i >= 0; i -= 1) {
    const { at } = items[i]!;
    if (at !== null && 'record' in items[i]! && voteLogKeys.entry(0, at, AFTER_RECEIPTS).SK < firstLeft) return at;
  }
  return null;
}

/**
 * The head's cut as a run may go on from: an instant as the service writes it and not after the wall
 * clock. Anything else (a writer's edit: a cut far ahead would make every run find nothing to do, for
 * ever) is repaired from the signed checkpoint the head names, whose cut the writer cannot change
 * without breaking its signature, and reported; without such a checkpoint the site gets none.
 */
async function trustedCut(siteId: number, head: LogHead): Promise<{ cut: string; repaired?: string }> {
  if (head.cut === '' && head.checkpointId === 0) return { cut: '' };
  if (isCanonicalInstant(head.cut) && head.cut <= new Date().toISOString()) return { cut: head.cut };
  const { PK, SK } = voteLogKeys.head(siteId);
  const signed = head.checkpointId > 0 ? await getSignedCheckpoint(siteId, head.checkpointId) : undefined;
  const signer = signed ? signerOf(votePublicKeys(), signed) : undefined;
  const form = signed && signer && 'key' in signer ? signedForm(signed, signer.key) : undefined;
  if (!signed || !form || !isCanonicalInstant(signed.cut) || signed.cut > new Date().toISOString()) {
    throw new CorruptRecordError('vote log head', `${PK}/${SK}`, { path: 'cut', message: `${JSON.stringify(head.cut)} is no cut of a signed checkpoint` });
  }
  return { cut: signed.cut, repaired: `the log head's cut ${JSON.stringify(head.cut)} is not checkpoint ${signed.id}'s: taken from its signed cut ${signed.cut}; run verify-votes` };
}

export async function sequenceSiteLog(siteId: number, now: Date, options: { maxEntries?: number; scanBallots?: number } = {}): Promise<SequenceOutcome> {
  const owner = randomBytes(9).toString('base64url');
  const head = await takeLogLease(siteId, owner, new Date(), new Date(Date.now() + LEASE_MS));
  const nothing = { checkpointId: null, appended: 0, forged: [], lateMigrations: [], more: false, complete: head?.complete === true, unsealedFound: false, misplaced: [], malformedBallots: [], malformedEntries: [], repaired: [] };
  // Another run holds the log: how far its signed checkpoints reach feeds the lag (a held log is behind).
  if (!head) return { ...nothing, treeSize: 0, busy: true, cut: await latestSignedCut(siteId) };
  try {
    if (head.indexing && head.indexing[1] > head.indexing[0]) await indexFromTiles(siteId, head.indexing[0], head.indexing[1], head.checkpointId);
    const from = await trustedCut(siteId, head);
    const repaired = from.repaired ? [from.repaired] : [];
    let cut = cutFor(now);
    if (from.cut !== '' && cut <= from.cut) return { ...nothing, repaired, treeSize: head.size, busy: false, cut: from.cut };
    const after = from.cut === '' ? null : from.cut;
    const limit = options.maxEntries ?? MAX_ENTRIES;
    let items = await readLogEntries(siteId, after, cut, limit + 1);
    let more = items.length > limit;
    if (more) {
      const taken = shareCut(items, limit);
      const firstLeft = items[limit]!.at;
      if (taken !== null) {
        // Every entry up to the cut is among those read: the checkpoint holds each, and nothing after.
        cut = taken;
        const end = voteLogKeys.entry(0, taken, AFTER_RECEIPTS).SK;
        items = items.slice(0, limit).filter((item) => item.sk <= end);
      } else if (firstLeft !== null) {
        // More than a share written in one millisecond: cutting before it would cut where the last
        // checkpoint did, for ever. This checkpoint takes that whole millisecond instead.
        cut = firstLeft;
        items = await readLogEntries(siteId, after, cut);
      } else {
        // Nothing taken gives a time to cut at (made-up keys with no time in them): this checkpoint
        // takes everything up to its cut (those items are reported below).
        more = false;
        items = await readLogEntries(siteId, after, cut);
      }
    }
    if (after !== null && cut <= after) {
      const { PK, SK } = voteLogKeys.head(siteId);
      throw new CorruptRecordError('vote log head', `${PK}/${SK}`, { path: 'cut', message: `the next cut ${cut} would not pass it (${after})` });
    }
    const chainKey = voteChainKey();
    const signingKey = voteSigningKey();
    // An item of the entry range that is no entry is left out and reported, never sequenced.
    const malformedEntries = items.flatMap((item) => ('malformed' in item ? [`${item.malformed.key} (${item.malformed.problem})`] : []));
    const entries = items.flatMap((item) => ('record' in item ? [sealedOf(item.record)] : []));
    const forged = entries.filter((entry) => !macIsValid(chainKey, entry));
    // Once the head says the log holds every ballot, migrate has nothing left to seal: an entry it wrote
    // since is a ballot written behind the log that a misled migrate sealed. Left out and reported.
    const lateMigrations = head.complete === true ? entries.filter((entry) => entry.migrated === true && !forged.includes(entry)) : [];
    const valid = entries.filter((entry) => !forged.includes(entry) && !lateMigrations.includes(entry)).sort(batchOrder);
    const { complete, sealScan, unsealedFound, misplaced, malformed: malformedBallots } = await completenessOf(siteId, head, options.scanBallots);
    const edge = await publishedEdge(siteId, head.size);
    const { frontier, tiles } = appendToTiles(frontierOf(head), edge, valid.map((entry) => Buffer.from(entry.mac, 'hex')));
    await writeLogTiles(siteId, tiles);
    // A new ballot is an entry that starts a chain: version 1, or a migrated ballot's first sealed version.
    const ballots = head.ballots + valid.filter((entry) => entry.prevMac === GENESIS_MAC).length;
    const checkpointId = head.checkpointId + 1;
    const signed = signCheckpoint(
      { siteId, id: checkpointId, treeSize: frontier.size, root: frontierRoot(frontier).toString('hex'), cut, ballots, ...(complete ? { complete } : {}) },
      signingKey,
    );
    const published = await publishSignedCheckpoint(
      { ...signed, createdAt: now.toISOString() },
      { siteId, size: frontier.size, frontier: frontier.hashes.map((hash) => hash.toString('hex')), checkpointId, cut, ballots, complete, sealScan, indexing: [head.size, frontier.size] },
      owner,
      { size: head.size, checkpointId: head.checkpointId, cut: from.cut },
    );
    if (published === 'cut-not-signed') {
      const { PK, SK } = voteLogKeys.head(siteId);
      throw new CorruptRecordError('vote log head', `${PK}/${SK}`, { path: 'cut', message: `${head.cut} is not the cut of checkpoint ${head.checkpointId}` });
    }
    if (published === 'lease-lost') return { ...nothing, repaired, treeSize: head.size, busy: true, cut: await latestSignedCut(siteId) };
    await writeReceiptIndex(siteId, valid.map((entry, i) => ({ receipt: entry.mac, leafIndex: head.size + i, checkpointId })));
    await finishIndexing(siteId, owner);
    if (valid.length > 0) {
      await markResultsStale(siteId, valid.reduce((first, entry) => (entry.writtenAt < first ? entry.writtenAt : first), valid[0]!.writtenAt));
      await makeJobDueBy(siteId, 'results', new Date(now.getTime() + RESULTS_DEBOUNCE_MS).toISOString());
    }
    return {
      checkpointId,
      appended: valid.length,
      treeSize: frontier.size,
      forged: forged.map(entryName),
      lateMigrations: lateMigrations.map(entryName),
      busy: false,
      cut,
      more,
      complete,
      unsealedFound,
      misplaced,
      malformedBallots,
      malformedEntries,
      repaired,
    };
  } finally {
    await releaseLogLease(siteId, owner);
  }
}
