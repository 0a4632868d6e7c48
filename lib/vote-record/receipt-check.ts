/**
 * A voter's own check of their receipt (docs/results.md "A voter's own check"), from published answers
 * alone: the receipt's inclusion proof (`GET .../vote-receipt/:receipt`), the latest checkpoint
 * (`GET .../vote-record/checkpoint`), the consistency proof between the two (`GET .../vote-record/
 * consistency`) and the public key (`GET /api/vote-record/key`). Nothing of the table, no secret. Pure:
 * `npm run verify-votes -- --receipt ...` (scripts/verify-receipt.ts) fetches, this decides.
 *
 * What passing means: the receipt is leaf `leafIndex` of a tree whose root the key signed, and the
 * latest signed tree extends that tree (nothing before the receipt rewritten, dropped or reordered
 * since). What it does not: that the receipt is the voter's current ballot (a later round has a new
 * receipt), or anything about who voted.
 */
import type { KeyObject } from 'node:crypto';
import { checkpointSignatureIsValid, logOrigin, publicKeyFromRaw } from '#lib/vote-record/checkpoint';
import { isReceipt } from '#lib/vote-record/entry';
import { leafHash, verifyConsistency, verifyInclusion } from '#lib/vote-record/merkle';

export interface PublishedCheckpoint {
  id: number;
  treeSize: number;
  root: string;
  cut: string;
  /** Absent from a receipt's proof while the site's vote counts are hidden (docs/results.md). */
  ballots?: number;
  signature: string;
  keyId: string;
}

export interface PublishedReceiptProof {
  receipt: string;
  checkpoint: PublishedCheckpoint;
  leafIndex: number;
  proof: string[];
}

export interface PublishedKey {
  keyId: string;
  publicKey: string;
}

export interface ReceiptCheckInput {
  siteId: number;
  /** The receipt the voter kept (the `receipt` of their vote answer). */
  receipt: string;
  inclusion: PublishedReceiptProof;
  latest: PublishedCheckpoint;
  /** The consistency proof from the inclusion's checkpoint to the latest (none needed when they are the same size). */
  consistency: string[] | null;
  key: PublishedKey;
  now: Date;
}

interface ReceiptCheck {
  ok: boolean;
  /** What was checked, one line each: `ok ...` or `FAIL ...`. */
  lines: string[];
}

const HEX_HASH = /^[0-9a-f]{64}$/;
const hashes = (list: readonly string[]) => list.map((h) => Buffer.from(h, 'hex'));
const wellFormed = (list: unknown): list is string[] => Array.isArray(list) && list.every((h) => typeof h === 'string' && HEX_HASH.test(h));

function signatureHolds(siteId: number, checkpoint: PublishedCheckpoint, key: PublishedKey, publicKey: KeyObject | undefined): boolean {
  const { ballots } = checkpoint;
  return publicKey !== undefined && ballots !== undefined && checkpoint.keyId === key.keyId && checkpointSignatureIsValid({ ...checkpoint, ballots, siteId }, publicKey);
}

export function checkReceipt(input: ReceiptCheckInput): ReceiptCheck {
  const { siteId, inclusion, latest, key } = input;
  const receipt = input.receipt.toLowerCase();
  const lines: string[] = [];
  let ok = true;
  const check = (holds: boolean, what: string, failure = what) => {
    lines.push(holds ? `ok    ${what}` : `FAIL  ${failure}`);
    ok &&= holds;
    return holds;
  };

  let publicKey: KeyObject | undefined;
  try {
    publicKey = publicKeyFromRaw(key.publicKey);
  } catch {
    publicKey = undefined;
  }
  check(publicKey !== undefined, `the public key ${key.keyId} is an Ed25519 key`, `the published key ${key.keyId} is not an Ed25519 public key`);
  if (!check(isReceipt(receipt), 'the receipt is 64 hex digits', `the receipt "${input.receipt}" is not 64 hex digits`)) return { ok, lines };
  check(inclusion.receipt.toLowerCase() === receipt, 'the proof is for this receipt', `the proof is for receipt ${inclusion.receipt}, not ${receipt}`);

  const at = inclusion.checkpoint;
  if (at.ballots === undefined) {
    // Counts hidden: the proof's checkpoint comes without its ballot count, so its own signature cannot
    // be checked; the signed latest checkpoint vouches for its root through the consistency proof.
    lines.push(`note  checkpoint ${at.id} comes without its ballot count (the site's counts are hidden): its root is checked through the latest checkpoint`);
  } else {
    check(
      signatureHolds(siteId, at, key, publicKey),
      `checkpoint ${at.id} (${at.treeSize} entries) is signed by key ${key.keyId} for ${logOrigin(siteId)}`,
      `checkpoint ${at.id} of the proof is not signed by key ${key.keyId} for ${logOrigin(siteId)} (signed by ${at.keyId}, or edited)`,
    );
  }
  const included =
    Number.isSafeInteger(inclusion.leafIndex) &&
    inclusion.leafIndex >= 0 &&
    inclusion.leafIndex < at.treeSize &&
    HEX_HASH.test(at.root) &&
    wellFormed(inclusion.proof) &&
    verifyInclusion(leafHash(Buffer.from(receipt, 'hex')), inclusion.leafIndex, at.treeSize, hashes(inclusion.proof), Buffer.from(at.root, 'hex'));
  check(included, `the receipt is leaf ${inclusion.leafIndex} of checkpoint ${at.id}'s tree`, `the receipt is not leaf ${inclusion.leafIndex} of checkpoint ${at.id}'s tree: the proof does not give its root`);

  check(
    signatureHolds(siteId, latest, key, publicKey),
    `the latest checkpoint ${latest.id} (${latest.treeSize} entries) is signed by key ${key.keyId}`,
    `the latest checkpoint ${latest.id} is not signed by key ${key.keyId} (or edited)`,
  );
  if (latest.treeSize === at.treeSize) {
    check(latest.root === at.root, 'the latest checkpoint is the same tree', `the latest checkpoint has ${latest.treeSize} entries like checkpoint ${at.id}, but another root: the log forked`);
  } else if (latest.treeSize < at.treeSize) {
    check(false, '', `the latest checkpoint (${latest.treeSize} entries) is smaller than checkpoint ${at.id} (${at.treeSize}): the log was cut back`);
  } else {
    const extends_ =
      wellFormed(input.consistency) && HEX_HASH.test(latest.root) && verifyConsistency(at.treeSize, latest.treeSize, Buffer.from(at.root, 'hex'), Buffer.from(latest.root, 'hex'), hashes(input.consistency));
    check(
      extends_,
      `the latest checkpoint extends checkpoint ${at.id} (consistency proof ${at.treeSize} -> ${latest.treeSize})`,
      `the latest checkpoint does not extend checkpoint ${at.id}: the consistency proof ${at.treeSize} -> ${latest.treeSize} fails (entries rewritten, dropped or reordered)`,
    );
  }
  for (const checkpoint of at.id === latest.id ? [at] : [at, latest]) {
    const cut = Date.parse(checkpoint.cut);
    check(Number.isFinite(cut) && cut <= input.now.getTime(), `checkpoint ${checkpoint.id} was cut at ${checkpoint.cut}, not in the future`, `checkpoint ${checkpoint.id} says it was cut at ${checkpoint.cut}, in the future`);
  }
  return { ok, lines };
}
