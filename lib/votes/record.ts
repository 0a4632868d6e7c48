/**
 * The vote record as anyone may read it (docs/results.md "The vote record"): the public key checkpoints
 * are signed with, the latest signed checkpoint, a receipt's inclusion proof against the first
 * checkpoint that covers it, and the consistency proof between two tree sizes. Proofs are computed from
 * the tiles they need (one BatchGet), never from the whole log.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { ApiError, badRequest, notFound, RECORD_CUT_HEADER } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import { isReceipt } from '#lib/vote-record/entry';
import { publishedKeys } from '#lib/vote-record/keys';
import { consistencyProof, inclusionProof, neededNodes, type NodeSource } from '#lib/vote-record/merkle';
import { tileKey, tilesFor, tileSource } from '#lib/vote-record/tiles';
import { getJobMarker } from '#lib/store/jobs/jobs';
import { getLogHead, getReceiptIndex, getSignedCheckpoint, latestSignedCheckpoint, readLogTiles, type SignedCheckpointItem } from '#lib/store/vote-log/log';

interface PublicCheckpoint {
  id: number;
  treeSize: number;
  root: string;
  cut: string;
  ballots: number;
  signature: string;
  keyId: string;
}

interface ReceiptProof {
  receipt: string;
  /** Without `ballots` for a caller who may not see the site's vote counts. */
  checkpoint: PublicCheckpoint | Omit<PublicCheckpoint, 'ballots'>;
  leafIndex: number;
  /** Sibling hashes from the leaf up (hex), RFC 9162 2.1.3. */
  proof: string[];
}

const toPublicCheckpoint = ({ id, treeSize, root, cut, ballots, signature, keyId }: SignedCheckpointItem): PublicCheckpoint => ({ id, treeSize, root, cut, ballots, signature, keyId });

export const voteRecordKey = () => publishedKeys();

/** A receipt's place in the log, for the request's first read (with the site). */
export const receiptReads = ({ siteId, params }: { siteId: number; params: { receipt: string } }) => getReceiptIndex.plan(siteId, params.receipt);

/** Runs `compute` over the tiles it needs: one dry run to learn the nodes, one BatchGet, the real run. */
async function withTiles<T>(siteId: number, compute: (source: NodeSource) => T): Promise<T> {
  const tiles = await readLogTiles(siteId, tilesFor(neededNodes(compute)));
  return compute(tileSource(new Map(tiles.map((tile) => [tileKey(tile), tile]))));
}

const hex = (hashes: readonly Buffer[]) => hashes.map((hash) => hash.toString('hex'));

/**
 * A receipt no checkpoint covers (yet): 404, saying how far the record goes and when the next checkpoint
 * is due, so a voter can tell "not yet" from "left out". A receipt written before the latest cut and
 * still missing was left out; one written after it is for the next checkpoint (2 more requests, on this
 * path only). Both only for callers who may see the site's counts: a cut off the schedule (a site past
 * its share of a run) tells how many entries wait, which a site hiding its counts hides. And no cut while
 * the latest checkpoint's receipts are still being indexed: they are in it, not yet findable.
 */
async function notCoveredYet(site: Site, caller: Caller, receipt: string, now: Date): Promise<ApiError> {
  const siteId = site.id;
  const notYet = `Receipt ${receipt} is not in a checkpoint of site ${siteId}`;
  if (!access.results.seesBallotCount(caller, site.config)) return notFound(`${notYet} yet`);
  const [head, marker] = await Promise.all([getLogHead(siteId), getJobMarker(siteId, 'vote-checkpoints')]);
  const indexing = head?.indexing !== undefined && head.indexing[1] > head.indexing[0];
  if (indexing) return new ApiError(404, 'NotFound', `${notYet} yet: the latest checkpoint is being indexed`, undefined, { 'Retry-After': '60' });
  const cut = head?.cut ? head.cut : undefined;
  const dueAt = marker?.dueAt ?? undefined;
  const headers: Record<string, string> = {};
  if (cut) headers[RECORD_CUT_HEADER] = cut;
  if (dueAt) headers['Retry-After'] = String(Math.max(60, Math.ceil((Date.parse(dueAt) - now.getTime()) / 1000)));
  const sofar = cut ? `the latest checkpoint covers the votes cast up to ${cut}` : 'the site has no checkpoint yet';
  const next = dueAt ? `; the next is due at ${dueAt}` : '';
  return new ApiError(404, 'NotFound', `${notYet}: ${sofar}${next}`, undefined, headers);
}

/**
 * Anyone's: a receipt is the voter's own proof. Its checkpoint carries the ballot count only for those
 * who may see the site's counts; the voter then checks its root through the latest checkpoint once that
 * is public (lib/vote-record/receipt-check.ts).
 */
export async function receiptProof(site: Site, caller: Caller, receipt: string): Promise<ReceiptProof> {
  const siteId = site.id;
  const at = isReceipt(receipt) ? await getReceiptIndex(siteId, receipt) : undefined;
  const checkpoint = at && (await getSignedCheckpoint(siteId, at.checkpointId));
  if (!at || !checkpoint) throw await notCoveredYet(site, caller, receipt, new Date());
  const proof = await withTiles(siteId, (source) => inclusionProof(source, at.leafIndex, checkpoint.treeSize));
  const published = toPublicCheckpoint(checkpoint);
  if (!access.results.seesBallotCount(caller, site.config)) {
    const { ballots: _hidden, ...withoutCount } = published;
    return { receipt, checkpoint: withoutCount, leafIndex: at.leafIndex, proof: hex(proof) };
  }
  return { receipt, checkpoint: published, leafIndex: at.leafIndex, proof: hex(proof) };
}

export async function latestCheckpoint(site: Site, caller: Caller): Promise<PublicCheckpoint> {
  access.results.record(caller, site.config);
  const siteId = site.id;
  const checkpoint = await latestSignedCheckpoint(siteId);
  if (!checkpoint) throw notFound(`Site ${siteId} has no signed checkpoint yet`);
  return toPublicCheckpoint(checkpoint);
}

/** The proof that the tree of `to` leaves extends the tree of `from` leaves (both within the latest checkpoint). */
export async function consistency(site: Site, caller: Caller, from: number, to: number): Promise<{ from: number; to: number; proof: string[] }> {
  access.results.record(caller, site.config);
  const siteId = site.id;
  const latest = await latestSignedCheckpoint(siteId);
  if (!latest || to > latest.treeSize) throw notFound(`Site ${siteId} has no signed checkpoint of ${to} entries or more`);
  if (from < 1 || from > to) throw badRequest('`from` must be at least 1 and at most `to`');
  return { from, to, proof: hex(await withTiles(siteId, (source) => consistencyProof(source, from, to))) };
}
