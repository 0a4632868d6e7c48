/**
 * The public keys that sign, have signed or will sign checkpoints (docs/results.md "Rotating the
 * signing key"). Every checkpoint names the key that signed it (`keyId`); a verifier holds the whole
 * set, as `GET /api/vote-record/key` publishes it, and picks the key by that id:
 * - `current` signs now; `next` is published before it signs (a rotation's first step), so no verifier
 *   meets a checkpoint whose key it has not been shown; `retired` keys signed older checkpoints and stay
 *   published for ever, each with `retiredAt`, the instant after which no checkpoint of ours is signed
 *   with it (a leaked retired key then cannot sign a checkpoint cut later than that);
 * - an id the set does not hold is refused, and so is a key listed under an id that is not its own;
 * - the key of a copy of the single-key answer (from before key lists) is trusted only as far as the
 *   copy's time vouches for it (`singleKeyCopy`).
 * Pure: the API publishes the set (lib/vote-record/keys.ts), the audits and the receipt check read it.
 */
import type { KeyObject } from 'node:crypto';
import { keyIdOf, publicKeyFromRaw } from '#lib/vote-record/checkpoint';

export type KeyStatus = 'current' | 'next' | 'retired';

/** One key as published: the raw 32 bytes (standard base64 or base64url) under its id. */
export interface PublishedKey {
  keyId: string;
  publicKey: string;
  /** Absent for the key of a copy of the single-key answer, from before key lists (`singleKeyCopy`). */
  status?: KeyStatus | undefined;
  /** A retired key's retirement; for the key of a single-key copy, the latest cut the copy vouches for. */
  retiredAt?: string | undefined;
}

export interface TrustedKey {
  key: KeyObject;
  /** As published; a key known only from a single-key copy is that, not `current` (it was, when copied). */
  status: KeyStatus | 'single-key copy';
  /** No checkpoint it signed is accepted with a cut after this instant. */
  retiredAt?: string | undefined;
  /** Known only from a copy of the single-key answer (its `retiredAt` is how far the copy vouches). */
  fromSingleKeyCopy?: true;
}

/**
 * The key of a copy of the single-key answer (`{keyId, publicKey, ...}`, no `keys`: the API's answer
 * before key lists), taken at `copiedAt`. It was current then, and no next key was published; a
 * rotation publishes its next key for `publicationSeconds` before that key signs (the key publication
 * delay, lib/routes/results/vote-key-publication.ts) and retires the old key no sooner, so the copy
 * vouches for its key for checkpoints cut up to `copiedAt` plus that delay. Whether it was retired
 * later, the copy cannot tell: a later checkpoint of that key needs the current key list.
 */
export function singleKeyCopy(copy: { keyId: string; publicKey: string }, copiedAt: Date, publicationSeconds: number): PublishedKey {
  return { keyId: copy.keyId, publicKey: copy.publicKey, retiredAt: new Date(copiedAt.getTime() + publicationSeconds * 1000).toISOString() };
}

const isTime = (text: string | undefined): text is string => text !== undefined && Number.isFinite(Date.parse(text));

/** Trusted keys by key id. */
export type KeySet = ReadonlyMap<string, TrustedKey>;

/** A key set as the API publishes it: every key with its published status. */
export type PublishedKeySet = ReadonlyMap<string, TrustedKey & { status: KeyStatus }>;

/** The set of the published keys; a key that is not an Ed25519 key, or not under its own id, is left out with a problem. */
export function keySetOf(published: readonly PublishedKey[]): { keys: KeySet; problems: string[] } {
  const keys = new Map<string, TrustedKey>();
  const problems: string[] = [];
  for (const entry of published) {
    let key: KeyObject;
    try {
      key = publicKeyFromRaw(entry.publicKey);
    } catch {
      problems.push(`the published key ${entry.keyId} is not an Ed25519 public key`);
      continue;
    }
    if (keyIdOf(key) !== entry.keyId) {
      problems.push(`the published key listed as ${entry.keyId} has the id ${keyIdOf(key)}`);
      continue;
    }
    if (entry.status === undefined) {
      // A single-key copy says only that its key was current when it was taken: without that time it
      // bounds nothing, and a key it vouches for without a bound would outlive any retirement.
      if (!isTime(entry.retiredAt)) {
        problems.push(`the key ${entry.keyId} comes from a single-key copy that does not say how far it vouches for it (no time): fetch the key list`);
        continue;
      }
      keys.set(entry.keyId, { key, status: 'single-key copy', retiredAt: entry.retiredAt, fromSingleKeyCopy: true });
      continue;
    }
    if (entry.status === 'retired' && !isTime(entry.retiredAt)) {
      problems.push(`the retired key ${entry.keyId} has no retirement time`);
      continue;
    }
    keys.set(entry.keyId, { key, status: entry.status, ...(entry.status === 'retired' ? { retiredAt: entry.retiredAt } : {}) });
  }
  return { keys, problems };
}

/** A key set of keys held in memory (the site audit, tests). */
export function keySetOfKeys(keys: readonly { key: KeyObject; status: KeyStatus; retiredAt?: string | undefined }[]): PublishedKeySet {
  return new Map(keys.map((entry) => [keyIdOf(entry.key), entry]));
}

/** The key to check `checkpoint`'s signature with, or why none may be used. */
export function signerOf(keys: KeySet, checkpoint: { keyId: string; cut: string }): { key: KeyObject } | { refused: string } {
  const trusted = keys.get(checkpoint.keyId);
  if (!trusted) return { refused: `it names key ${checkpoint.keyId}, which is not a published key` };
  if (trusted.retiredAt !== undefined && !(Date.parse(checkpoint.cut) <= Date.parse(trusted.retiredAt))) {
    return {
      refused: trusted.fromSingleKeyCopy
        ? `it is signed by key ${checkpoint.keyId}, known here only from a single-key copy that vouches for it up to ${trusted.retiredAt}, but cut later (${checkpoint.cut}): fetch the current key list`
        : `it is signed by key ${checkpoint.keyId}, retired at ${trusted.retiredAt}, but cut later (${checkpoint.cut})`,
    };
  }
  return { key: trusted.key };
}
