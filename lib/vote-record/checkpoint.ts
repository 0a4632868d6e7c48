/**
 * Signed checkpoints of a site's vote log (the "signed tree head" of Certificate Transparency). The
 * signed text follows C2SP's tlog-checkpoint layout, so it reads like Go's sumdb or Sigstore's
 * checkpoints: an origin line naming the log, the tree size, the root (standard base64), then extension
 * lines, each ending in a newline:
 *
 *   participation-api/site/3/votes
 *   1042
 *   q0Wm7m2kC5cF7b1zj1q1mX6b5o6Wc3Jm0pQ9KzL0p0A=
 *   checkpoint 17
 *   cut 2026-05-01T12:00:00.000Z
 *   ballots 998
 *   complete
 *
 * `cut`: the log holds every entry written up to that instant (and none after it); `ballots`: how many
 * ballots the log holds; `complete` (only once it holds): every ballot of the site is in the log, none
 * is left from before it, so from then on a ballot without entries was written behind the log. A
 * checkpoint without the line says nothing either way (those signed before the line existed too).
 * The signature is Ed25519 (RFC 8032) over exactly these bytes, with the key of
 * lib/vote-record/keys.ts; its public half is published at `GET /api/vote-record/key`. Pure.
 */
import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

interface CheckpointHead {
  siteId: number;
  /** Checkpoints of a site are numbered 1, 2, 3, ... in the order they are signed. */
  id: number;
  treeSize: number;
  /** The tree's root, lowercase hex. */
  root: string;
  /** Every entry written up to this instant is in the tree. */
  cut: string;
  ballots: number;
  /** The log holds every ballot of the site (absent: not known to). */
  complete?: boolean | undefined;
}

export interface SignedCheckpoint extends CheckpointHead {
  /** Ed25519 over `checkpointText(head)`, standard base64. */
  signature: string;
  /** Which key signed it (`keyIdOf`). */
  keyId: string;
}

export const logOrigin = (siteId: number): string => `participation-api/site/${siteId}/votes`;

/** The exact bytes that are signed. */
export function checkpointText(head: CheckpointHead): string {
  return [
    logOrigin(head.siteId),
    `${head.treeSize}`,
    Buffer.from(head.root, 'hex').toString('base64'),
    `checkpoint ${head.id}`,
    `cut ${head.cut}`,
    `ballots ${head.ballots}`,
    ...(head.complete === true ? ['complete'] : []),
    '',
  ].join('\n');
}

/** The raw 32 bytes of an Ed25519 public key. */
export function rawPublicKey(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new RangeError('Not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url');
}

/** A short, stable name of a public key: the first 8 bytes of its SHA-256, hex. */
export const keyIdOf = (key: KeyObject): string => createHash('sha256').update(rawPublicKey(key)).digest('hex').slice(0, 16);

/** The public key from its raw 32 bytes (base64 or base64url). */
export function publicKeyFromRaw(raw: string): KeyObject {
  const bytes = Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64');
  if (bytes.length !== 32) throw new RangeError('An Ed25519 public key is 32 bytes');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') }, format: 'jwk' });
}

export function signCheckpoint(head: CheckpointHead, privateKey: KeyObject): SignedCheckpoint {
  const signature = sign(null, Buffer.from(checkpointText(head), 'utf8'), privateKey).toString('base64');
  return { ...head, signature, keyId: keyIdOf(privateKey) };
}

/** Whether `checkpoint` carries a valid signature by `publicKey` over its fields. */
export function checkpointSignatureIsValid(checkpoint: SignedCheckpoint, publicKey: KeyObject): boolean {
  try {
    return verify(null, Buffer.from(checkpointText(checkpoint), 'utf8'), publicKey, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * Which text the signature holds for, whether or not the copy at hand says so: a published answer
 * carries no field for the `complete` line, so a copy without `complete` is checked in both forms.
 * A copy that says `complete` holds only in that form (a claim of completeness is never taken unsigned).
 * 'complete' or 'open' (no line) when it verifies, undefined when neither does.
 */
export function signedForm(checkpoint: SignedCheckpoint, publicKey: KeyObject): 'complete' | 'open' | undefined {
  if (checkpoint.complete === true) return checkpointSignatureIsValid(checkpoint, publicKey) ? 'complete' : undefined;
  if (checkpointSignatureIsValid({ ...checkpoint, complete: false }, publicKey)) return 'open';
  return checkpointSignatureIsValid({ ...checkpoint, complete: true }, publicKey) ? 'complete' : undefined;
}
