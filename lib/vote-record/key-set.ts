/**
 * The public keys that sign, have signed or will sign checkpoints (docs/results.md "Rotating the
 * signing key"). Every checkpoint names the key that signed it (`keyId`); a verifier holds the whole
 * set, as `GET /api/vote-record/key` publishes it, and picks the key by that id:
 * - `current` signs now; `next` is published before it signs (a rotation's first step), so no verifier
 *   meets a checkpoint whose key it has not been shown; `retired` keys signed older checkpoints and stay
 *   published for ever, each with `retiredAt`, the instant after which no checkpoint of ours is signed
 *   with it (a leaked retired key then cannot sign a checkpoint cut later than that);
 * - an id the set does not hold is refused, and so is a key listed under an id that is not its own.
 * Pure: the API publishes the set (lib/vote-record/keys.ts), the audits and the receipt check read it.
 */
import type { KeyObject } from 'node:crypto';
import { keyIdOf, publicKeyFromRaw } from '#lib/vote-record/checkpoint';

export type KeyStatus = 'current' | 'next' | 'retired';

/** One key as published: the raw 32 bytes (standard base64 or base64url) under its id. */
export interface PublishedKey {
  keyId: string;
  publicKey: string;
  /** Absent in a copy of the single key published before rotation existed: that key is `current`. */
  status?: KeyStatus | undefined;
  retiredAt?: string | undefined;
}

export interface TrustedKey {
  key: KeyObject;
  status: KeyStatus;
  retiredAt?: string | undefined;
}

/** Trusted keys by key id. */
export type KeySet = ReadonlyMap<string, TrustedKey>;

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
    const status = entry.status ?? 'current';
    if (status === 'retired' && !(entry.retiredAt !== undefined && Number.isFinite(Date.parse(entry.retiredAt)))) {
      problems.push(`the retired key ${entry.keyId} has no retirement time`);
      continue;
    }
    keys.set(entry.keyId, { key, status, ...(status === 'retired' ? { retiredAt: entry.retiredAt } : {}) });
  }
  return { keys, problems };
}

/** A key set of keys held in memory (the site audit, tests). */
export function keySetOfKeys(keys: readonly { key: KeyObject; status: KeyStatus; retiredAt?: string | undefined }[]): KeySet {
  return new Map(keys.map((entry) => [keyIdOf(entry.key), entry]));
}

/** The key to check `checkpoint`'s signature with, or why none may be used. */
export function signerOf(keys: KeySet, checkpoint: { keyId: string; cut: string }): { key: KeyObject } | { refused: string } {
  const trusted = keys.get(checkpoint.keyId);
  if (!trusted) return { refused: `it names key ${checkpoint.keyId}, which is not a published key` };
  if (trusted.status === 'retired' && !(Date.parse(checkpoint.cut) <= Date.parse(trusted.retiredAt!))) {
    return { refused: `it is signed by key ${checkpoint.keyId}, retired at ${trusted.retiredAt}, but cut later (${checkpoint.cut})` };
  }
  return { key: trusted.key };
}
