/**
 * The audit of a site's vote log, as Certificate Transparency monitors check a log: every entry, every
 * leaf, every signed checkpoint and the consistency between checkpoints. Pure: the caller reads the
 * entries, the log's leaves (lib/vote-record/tiles.ts) and the checkpoints, and passes the keys.
 *
 * What it finds, each a separate problem with what it points at:
 * - an entry whose mac is not the chain key's (a forged new version, an edited old one);
 * - a ballot whose versions do not chain (a deleted or duplicated version, a first version that does
 *   not start the chain);
 * - a leaf of the log without its entry (a deleted entry), an entry twice in the log, the log out of
 *   its order (time written, then receipt: a reordered log), an entry older than the latest
 *   checkpoint's cut that is not in the log, an entry in the log written after its checkpoint's cut;
 * - a checkpoint whose signature fails (a replaced or edited checkpoint), or whose record drops the
 *   `complete` line it was signed with, or a checkpoint that no longer says the log holds every ballot
 *   after one that did (the line is never dropped: a log head rewritten to make the job sign without
 *   it), a checkpoint that names a key no one
 *   published or a retired key after its retirement (lib/vote-record/key-set.ts), a gap in their numbers (a
 *   deleted one), a root or ballot count that the log's leaves do not give, a tree that does not extend
 *   the previous checkpoint's (checked with an RFC 9162 consistency proof, as an outside monitor
 *   holding only the two checkpoints would);
 * - a time in the future (an entry or a checkpoint dated after `now`);
 * - an entry no checkpoint holds longer after it was written than the lag alarm allows (stalled checkpoints);
 * - against a checkpoint obtained elsewhere (`pinned`: published by the city, kept by a voter or a
 *   witness): a different root at its size (a fork), or a log shorter than it (a rollback).
 * The replayed ballots (each ballot's latest version in the entries) come back for the caller to
 * compare with the stored ballots and tallies.
 */
import { signedForm, type SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { batchOrder, GENESIS_MAC, macIsValid, type SealedEntry } from '#lib/vote-record/entry';
import { signerOf, type KeySet } from '#lib/vote-record/key-set';
import { CHECKPOINT_LAG_LIMIT_SECONDS } from '#lib/vote-record/schedule';
import {
  appendLeaves,
  consistencyProof,
  EMPTY_FRONTIER,
  frontierRoot,
  type Hash,
  leafHash,
  type NodeSource,
  verifyConsistency,
} from '#lib/vote-record/merkle';

export interface LogAuditInput {
  siteId: number;
  /** The auditor's clock (ISO). */
  now: string;
  chainKey: Uint8Array;
  /** The published keys by key id (current, next, retired: lib/vote-record/key-set.ts). */
  publicKeys: KeySet;
  /** Every entry stored for the site, in any order. */
  entries: readonly SealedEntry[];
  /** The log's leaf data (receipts) in log order, as far as the latest checkpoint reaches (or further). */
  leaves: readonly Buffer[];
  /** The site's checkpoints as stored, in any order. */
  checkpoints: readonly SignedCheckpoint[];
  pinned?: SignedCheckpoint | undefined;
}

interface LogAudit {
  problems: string[];
  notes: string[];
  /** Each ballot's latest version among the entries (by user id). */
  latest: Map<number, SealedEntry>;
  /** The latest checkpoint that checked out, if any. */
  checkpoint: SignedCheckpoint | undefined;
  /**
   * The first signed checkpoint (of the table, or the pinned copy) that says the log holds every
   * ballot of the site: from then on a ballot without entries was written behind the log.
   */
  complete: SignedCheckpoint | undefined;
}

const who = (entry: Pick<SealedEntry, 'userId' | 'version'>) => `the ballot of user ${entry.userId}, version ${entry.version}`;

/** MTH of every prefix the checkpoints name, from the leaves, in one pass (plus a node source for proofs). */
function prefixRoots(leaves: readonly Buffer[], sizes: ReadonlySet<number>): { roots: Map<number, Hash>; source: NodeSource } {
  const nodes = new Map<string, Hash>();
  const roots = new Map<number, Hash>();
  let frontier = EMPTY_FRONTIER;
  if (sizes.has(0)) roots.set(0, frontierRoot(frontier));
  for (const leaf of leaves) {
    frontier = appendLeaves(frontier, [leafHash(leaf)], (level, index, hash) => nodes.set(`${level}/${index}`, hash));
    if (sizes.has(frontier.size)) roots.set(frontier.size, frontierRoot(frontier));
  }
  const source: NodeSource = (level, index) => {
    const hash = nodes.get(`${level}/${index}`);
    if (!hash) throw new RangeError(`node ${level}/${index} is beyond the log`);
    return hash;
  };
  return { roots, source };
}

export function auditVoteLog(input: LogAuditInput): LogAudit {
  const problems: string[] = [];
  const notes: string[] = [];

  // 1. Entries: sealed with the chain key, dated no later than now.
  const byReceipt = new Map<string, SealedEntry>();
  for (const entry of input.entries) {
    if (entry.siteId !== input.siteId) problems.push(`${who(entry)} belongs to site ${entry.siteId}`);
    if (byReceipt.has(entry.mac)) problems.push(`two entries carry the receipt ${entry.mac}`);
    byReceipt.set(entry.mac, entry);
    if (!macIsValid(input.chainKey, entry)) problems.push(`${who(entry)} is not sealed by the chain key: a forged or edited entry (receipt ${entry.mac.slice(0, 16)}...)`);
    if (entry.writtenAt > input.now) problems.push(`${who(entry)} is dated in the future (${entry.writtenAt})`);
  }

  // 2. Per ballot, consecutive versions each naming the previous one's mac. The first names GENESIS_MAC:
  // version 1, or the first version written after the log began of a ballot older than it (sealed
  // with the key like any entry, so nobody without it can start a chain).
  const perBallot = new Map<number, SealedEntry[]>();
  for (const entry of input.entries) {
    const list = perBallot.get(entry.userId) ?? [];
    list.push(entry);
    perBallot.set(entry.userId, list);
  }
  const latest = new Map<number, SealedEntry>();
  for (const [userId, list] of perBallot) {
    list.sort((a, b) => a.version - b.version);
    list.forEach((entry, i) => {
      const before = list[i - 1];
      if (before && entry.version === before.version) problems.push(`the ballot of user ${userId} has two versions ${entry.version}`);
      else if (before && entry.version !== before.version + 1) problems.push(`the ballot of user ${userId} has no version ${before.version + 1}: a deleted version`);
      else if (!before && entry.prevMac !== GENESIS_MAC) {
        problems.push(entry.version > 1 ? `the ballot of user ${userId} has no version ${entry.version - 1}: a deleted version` : `${who(entry)} does not start the chain`);
      } else if (before && entry.prevMac !== before.mac) problems.push(`${who(entry)} does not follow version ${entry.version - 1}: the chain is broken`);
    });
    latest.set(userId, list[list.length - 1]!);
  }

  // 3. Checkpoints: numbered without gaps, signed, in time order, within the log.
  const checkpoints = [...input.checkpoints].sort((a, b) => a.id - b.id);
  checkpoints.forEach((cp, i) => {
    if (cp.id !== i + 1) problems.push(`checkpoint ${i + 1} is missing (the next one is ${cp.id}): a deleted checkpoint`);
  });
  const signed: SignedCheckpoint[] = [];
  for (const cp of checkpoints) {
    const signer = signerOf(input.publicKeys, cp);
    const form = cp.siteId === input.siteId && 'key' in signer ? signedForm(cp, signer.key) : undefined;
    if ('refused' in signer) problems.push(`checkpoint ${cp.id}: ${signer.refused}`);
    else if (!form) problems.push(`checkpoint ${cp.id}: the signature does not verify (a replaced or edited checkpoint)`);
    else if (form === 'complete' && cp.complete !== true) problems.push(`checkpoint ${cp.id}: its record drops the \`complete\` line it was signed with (an edited checkpoint)`);
    if (cp.cut > input.now) problems.push(`checkpoint ${cp.id} is dated in the future (${cp.cut})`);
    // Taken as signed, in the form that verifies.
    if (form) signed.push({ ...cp, complete: form === 'complete' });
  }
  // Once a checkpoint says the log holds every ballot, every later one says it too.
  let complete = signed.find((cp) => cp.complete);
  const dropped = (after: SignedCheckpoint, what: string) => {
    const first = signed.find((cp) => cp.id > after.id && !cp.complete);
    if (first) problems.push(`checkpoint ${first.id} no longer says the log holds every ballot, as ${what} did (signed over a rewritten log head, or the log lost ballots)`);
  };
  if (complete) dropped(complete, `checkpoint ${complete.id}`);
  const logSize = input.leaves.length;
  const sizes = new Set(signed.map((cp) => cp.treeSize).filter((size) => size <= logSize));
  if (input.pinned && input.pinned.treeSize <= logSize) sizes.add(input.pinned.treeSize);
  const { roots, source } = prefixRoots(input.leaves, sizes);

  // 4. The leaves: each an entry, once, in log order; what a checkpoint covers is what it says.
  const position = new Map<string, number>();
  const reach = signed.length > 0 ? Math.max(...signed.map((cp) => cp.treeSize)) : 0;
  input.leaves.slice(0, Math.max(reach, 0)).forEach((leaf, index) => {
    const receipt = leaf.toString('hex');
    if (position.has(receipt)) problems.push(`log leaf ${index} repeats leaf ${position.get(receipt)} (receipt ${receipt.slice(0, 16)}...)`);
    position.set(receipt, index);
    if (!byReceipt.has(receipt)) problems.push(`log leaf ${index} (receipt ${receipt.slice(0, 16)}...) has no entry: a deleted entry`);
  });
  const ordered = input.leaves.slice(0, reach).map((leaf) => byReceipt.get(leaf.toString('hex')));
  // Within a checkpoint's batch by receipt; from one batch to the next by time written (each batch
  // lies between its checkpoint's cut and the one before, checked below).
  const batchEnds = new Set(signed.map((cp) => cp.treeSize));
  for (let i = 1; i < ordered.length; i += 1) {
    const [a, b] = [ordered[i - 1], ordered[i]];
    if (a && b && (batchEnds.has(i) ? a.writtenAt >= b.writtenAt : batchOrder(a, b) >= 0)) {
      problems.push(`log leaves ${i - 1} and ${i} are out of order (a reordered log)`);
      break;
    }
  }

  let previous: SignedCheckpoint | undefined;
  let good: SignedCheckpoint | undefined;
  for (const cp of signed) {
    let ok = true;
    if (cp.treeSize > logSize) {
      problems.push(`checkpoint ${cp.id} covers ${cp.treeSize} entries, the log holds ${logSize}: entries were removed from the log`);
      continue;
    }
    const root = roots.get(cp.treeSize)!;
    if (root.toString('hex') !== cp.root) {
      problems.push(`checkpoint ${cp.id}: the log's first ${cp.treeSize} leaves give root ${root.toString('hex').slice(0, 16)}..., it signed ${cp.root.slice(0, 16)}...`);
      ok = false;
    }
    const covered = new Set(ordered.slice(0, cp.treeSize).map((entry) => entry?.userId));
    covered.delete(undefined);
    if (covered.size !== cp.ballots) problems.push(`checkpoint ${cp.id} says ${cp.ballots} ballot(s), its entries hold ${covered.size}`);
    for (const entry of ordered.slice(previous?.treeSize ?? 0, cp.treeSize)) {
      if (entry && entry.writtenAt > cp.cut) {
        problems.push(`${who(entry)} was written at ${entry.writtenAt}, after the cut of checkpoint ${cp.id} that holds it`);
        break;
      }
      if (entry && previous && entry.writtenAt <= previous.cut) {
        problems.push(`${who(entry)} was written at ${entry.writtenAt}, within checkpoint ${previous.id}'s cut, yet checkpoint ${cp.id} holds it`);
        break;
      }
    }
    if (previous) {
      if (cp.cut < previous.cut || cp.treeSize < previous.treeSize) {
        problems.push(`checkpoint ${cp.id} goes back from checkpoint ${previous.id} (cut or size)`);
        ok = false;
      } else if (previous.treeSize > 0) {
        const proof = consistencyProof(source, previous.treeSize, cp.treeSize);
        if (!verifyConsistency(previous.treeSize, cp.treeSize, Buffer.from(previous.root, 'hex'), Buffer.from(cp.root, 'hex'), proof)) {
          problems.push(`checkpoint ${cp.id} does not extend checkpoint ${previous.id} (consistency proof fails)`);
          ok = false;
        }
      }
    }
    previous = cp;
    if (ok) good = cp;
  }

  // 5. Entries the log must hold by now, and those still to come.
  const latestCut = signed.length > 0 ? signed.reduce((a, b) => (a.cut > b.cut ? a : b)).cut : undefined;
  let pending = 0;
  for (const entry of input.entries) {
    if (position.has(entry.mac)) continue;
    if (latestCut !== undefined && entry.writtenAt <= latestCut) problems.push(`${who(entry)} (written ${entry.writtenAt}) is not in the log, though checkpoint ${signed.at(-1)!.id} covers that time`);
    else if (Date.parse(input.now) - Date.parse(entry.writtenAt) > CHECKPOINT_LAG_LIMIT_SECONDS * 1000) {
      // Past the lag alarm's limit: the checkpoints are stalled (a held lease, an edited log head), and a
      // vote removed meanwhile would leave no trace in the record.
      problems.push(`${who(entry)} (written ${entry.writtenAt}) is in no checkpoint ${CHECKPOINT_LAG_LIMIT_SECONDS / 60} minutes on: the checkpoints are stalled (run npm run job -- vote-checkpoints --site ${input.siteId} and read its report)`);
    } else pending += 1;
  }
  if (pending > 0) notes.push(`${pending} entr${pending === 1 ? 'y' : 'ies'} written since the latest checkpoint, not in the log yet`);

  // 6. A checkpoint kept outside the table.
  const pinned = input.pinned;
  if (pinned) {
    const signer = signerOf(input.publicKeys, pinned);
    const form = pinned.siteId === input.siteId && 'key' in signer ? signedForm(pinned, signer.key) : undefined;
    if (form === 'complete') {
      // A copy kept outside says the log held every ballot: so must the table's checkpoints from it on.
      if (!complete || pinned.id < complete.id) {
        dropped(pinned, `the pinned checkpoint ${pinned.id}`);
        complete = { ...pinned, complete: true };
      }
    }
    if ('refused' in signer) problems.push(`the pinned checkpoint: ${signer.refused}`);
    else if (!form) problems.push('the pinned checkpoint: its signature does not verify');
    else if (pinned.treeSize > logSize) problems.push(`the pinned checkpoint covers ${pinned.treeSize} entries, the log now holds ${logSize}: the log was rolled back`);
    else if (roots.get(pinned.treeSize)!.toString('hex') !== pinned.root) problems.push(`the pinned checkpoint's root differs from the log's at size ${pinned.treeSize}: the log was rewritten (a fork)`);
    else notes.push(`the pinned checkpoint (size ${pinned.treeSize}) is a prefix of the log`);
    const known = signed.find((cp) => cp.id === pinned.id);
    if (known && known.root !== pinned.root) problems.push(`checkpoint ${pinned.id} in the table differs from the pinned copy`);
  }

  // 7. A migration entry written after the cut of the first checkpoint that says the log holds every
  // ballot: migrate sealed a ballot written behind the log (its guard reads the table, which a writer
  // can hide checkpoints from for the run). The mark is inside the mac, so it cannot be taken off.
  if (complete) {
    for (const entry of input.entries) {
      if (entry.migrated === true && entry.writtenAt > complete.cut && macIsValid(input.chainKey, entry)) {
        problems.push(`${who(entry)} was sealed by npm run migrate at ${entry.writtenAt}, after checkpoint ${complete.id} said the log holds every ballot (cut ${complete.cut}): a ballot written behind the log`);
      }
    }
  }
  return { problems, notes, latest, checkpoint: good, complete };
}
