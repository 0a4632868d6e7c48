/**
 * A voter's own check of their receipt (docs/results.md "A voter's own check"), from published answers
 * alone: the receipt's inclusion proof (`GET .../vote-receipt/:receipt`), the latest checkpoint
 * (`GET .../vote-record/checkpoint`), the consistency proof between the two (`GET .../vote-record/
 * consistency`) and the public key (`GET /api/vote-record/key`). Nothing of the table, no secret. Pure:
 * `npm run verify-votes -- --receipt ...` (scripts/verify-receipt.ts) fetches, this decides.
 *
 * Keys: each checkpoint is checked with the published key it names (lib/vote-record/key-set.ts), so a
 * receipt from before a rotation still checks; an id nobody published is refused.
 *
 * Completeness: a checkpoint's signed text ends with a `complete` line once the log holds every ballot
 * of the site (lib/vote-record/checkpoint.ts); the answers carry no field for it, so each signature is
 * checked in both forms, and the form that holds says which. A latest checkpoint without the line after
 * a receipt's checkpoint with it is a log that lost what it said it held: it fails.
 *
 * Time: a checkpoint holds the entries written up to its cut, so the receipt's checkpoint must be cut
 * no earlier than the vote was cast (when the voter knows a time at or before it: the vote answer's
 * `createdAt`, or one they noted), and the latest no earlier than the receipt's. A checkpoint
 * backdated under either, as a leaked retired key can sign (its signatures count only up to its
 * retirement), fails.
 *
 * What passing means: the receipt is leaf `leafIndex` of a tree whose root a published key signed, and the
 * latest signed tree extends that tree (nothing before the receipt rewritten, dropped or reordered
 * since). What it does not: that the receipt is the voter's current ballot (a later round has a new
 * receipt), or anything about who voted.
 */
import { logOrigin, signedForm } from '#lib/vote-record/checkpoint';
import { keySetOf, signerOf, type KeySet, type PublishedKey } from '#lib/vote-record/key-set';
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

export interface ReceiptCheckInput {
  siteId: number;
  /** The receipt the voter kept (the `receipt` of their vote answer). */
  receipt: string;
  inclusion: PublishedReceiptProof;
  latest: PublishedCheckpoint;
  /** The consistency proof from the inclusion's checkpoint to the latest (none needed when they are the same size). */
  consistency: string[] | null;
  /** Every published key (`GET /api/vote-record/key` `keys`, or the one key of an older copy). */
  keys: readonly PublishedKey[];
  now: Date;
  /** A time at or before the vote was cast (ISO), if the voter knows one: the receipt's checkpoint is cut no earlier. */
  castAt?: string | undefined;
}

interface ReceiptCheck {
  ok: boolean;
  /** What was checked, one line each: `ok ...` or `FAIL ...`. */
  lines: string[];
}

const HEX_HASH = /^[0-9a-f]{64}$/;
const hashes = (list: readonly string[]) => list.map((h) => Buffer.from(h, 'hex'));
const wellFormed = (list: unknown): list is string[] => Array.isArray(list) && list.every((h) => typeof h === 'string' && HEX_HASH.test(h));

/** Whether `checkpoint` is signed by the published key it names (a retired key only up to its retirement), and in which form. */
function signature(siteId: number, checkpoint: PublishedCheckpoint, keys: KeySet): { holds: true; complete: boolean } | { holds: false; why: string } {
  const signer = signerOf(keys, checkpoint);
  if ('refused' in signer) return { holds: false, why: signer.refused };
  const { ballots } = checkpoint;
  const form = ballots === undefined ? undefined : signedForm({ ...checkpoint, ballots, siteId }, signer.key);
  if (!form) return { holds: false, why: `its signature does not verify with key ${checkpoint.keyId} for ${logOrigin(siteId)} (edited)` };
  return { holds: true, complete: form === 'complete' };
}

/** Whether instant `a` is at or after `b` (both ISO; an unreadable one never is). */
const notBefore = (a: string, b: string) => Date.parse(a) >= Date.parse(b);

const says = (complete: boolean) => (complete ? ', and says the log holds every ballot of the site' : '');

export function checkReceipt(input: ReceiptCheckInput): ReceiptCheck {
  const { siteId, inclusion, latest } = input;
  const receipt = input.receipt.toLowerCase();
  const lines: string[] = [];
  let ok = true;
  const check = (holds: boolean, what: string, failure = what) => {
    lines.push(holds ? `ok    ${what}` : `FAIL  ${failure}`);
    ok &&= holds;
    return holds;
  };

  const { keys, problems } = keySetOf(input.keys);
  for (const problem of problems) check(false, '', problem);
  check(keys.size > 0, `${keys.size} published key(s): ${[...keys].map(([id, k]) => `${id} (${k.status})`).join(', ')}`, 'no usable published key');
  if (!check(isReceipt(receipt), 'the receipt is 64 hex digits', `the receipt "${input.receipt}" is not 64 hex digits`)) return { ok, lines };
  check(inclusion.receipt.toLowerCase() === receipt, 'the proof is for this receipt', `the proof is for receipt ${inclusion.receipt}, not ${receipt}`);

  const at = inclusion.checkpoint;
  let atComplete = false;
  if (at.ballots === undefined) {
    // Counts hidden: the proof's checkpoint comes without its ballot count, so its own signature cannot
    // be checked; the signed latest checkpoint vouches for its root through the consistency proof.
    lines.push(`note  checkpoint ${at.id} comes without its ballot count (the site's counts are hidden): its root is checked through the latest checkpoint`);
  } else {
    const signed = signature(siteId, at, keys);
    atComplete = signed.holds && signed.complete;
    check(
      signed.holds,
      `checkpoint ${at.id} (${at.treeSize} entries) is signed by key ${at.keyId} for ${logOrigin(siteId)}${says(atComplete)}`,
      `checkpoint ${at.id} of the proof is not signed by a published key: ${'why' in signed ? signed.why : ''}`,
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

  const latestSigned = signature(siteId, latest, keys);
  check(
    latestSigned.holds,
    `the latest checkpoint ${latest.id} (${latest.treeSize} entries) is signed by key ${latest.keyId}${says(latestSigned.holds && latestSigned.complete)}`,
    `the latest checkpoint ${latest.id} is not signed by a published key: ${'why' in latestSigned ? latestSigned.why : ''}`,
  );
  if (atComplete && latestSigned.holds) {
    check(
      latestSigned.complete,
      'the latest checkpoint still says the log holds every ballot',
      `the latest checkpoint ${latest.id} no longer says the log holds every ballot, as checkpoint ${at.id} did: the log lost ballots, or was rewritten`,
    );
  }
  check(
    latest.id >= at.id && notBefore(latest.cut, at.cut),
    `the latest checkpoint (cut ${latest.cut}) is not older than checkpoint ${at.id} (cut ${at.cut})`,
    `the latest checkpoint ${latest.id} (cut ${latest.cut}) is older than the receipt's checkpoint ${at.id} (cut ${at.cut}): not a later state of the log`,
  );
  if (input.castAt === undefined) lines.push(`note  the time of the vote is not known here: checkpoint ${at.id}'s cut is not compared with it (give the vote answer, or --voted-at)`);
  else {
    check(
      notBefore(at.cut, input.castAt),
      `checkpoint ${at.id} was cut at ${at.cut}, after the vote was cast (${input.castAt})`,
      `checkpoint ${at.id} says it holds only the votes cast up to ${at.cut}, yet holds this one, cast at ${input.castAt}: a backdated checkpoint`,
    );
  }
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
