/**
 * The keys of the vote record, kept apart from the table and from each other, read from the secret
 * store (lib/config/secret-values.ts `voteChainKey`, `voteSigningKey`, `votePublicKey`; locally
 * VOTE_CHAIN_KEY and VOTE_SIGNING_KEY, or public dev defaults), each only by the functions whose access
 * class names it (lib/config/access-classes.ts):
 * - the **chain key** (HMAC-SHA-256, >= 32 bytes) seals every log entry (lib/vote-record/entry.ts): the
 *   writes that change ballots and the jobs; a reader of the table alone cannot forge or edit an entry;
 * - the **signing key** (an Ed25519 seed) signs the checkpoints (lib/vote-record/checkpoint.ts): the
 *   vote-checkpoints job only;
 * - its **public half** is published (`GET /api/vote-record/key`), stored apart so that route signs
 *   nothing, with the next key of a rotation and every retired one (lib/vote-record/key-set.ts).
 * This is the one interface the rest of the code reads them through.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { secret } from '#lib/config/secrets';
import { signingKeyFromSeed, type VotePublicKeys } from '#lib/config/secret-values';
import { keyIdOf, publicKeyFromRaw, rawPublicKey } from '#lib/vote-record/checkpoint';
import { keySetOfKeys, type KeyStatus, type PublishedKeySet } from '#lib/vote-record/key-set';

interface VoteRecordKeys {
  chainKey: Uint8Array;
  signingKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
}

/** The keys from their raw values (tests and tools make their own). */
export function voteRecordKeysOf(chainKey: Uint8Array, seed: Uint8Array): VoteRecordKeys {
  const signingKey = signingKeyFromSeed(seed);
  const publicKey = createPublicKey(signingKey);
  return { chainKey, signingKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** The chain key, as the secret store has it now. */
export const voteChainKey = (): Uint8Array => secret('voteChainKey');

let signer: { seed: Uint8Array; key: KeyObject } | undefined;

/** The checkpoint signing key: the current seed's (made again only when the stored seed changed). */
export function voteSigningKey(): KeyObject {
  const seed = secret('voteSigningKey').current;
  if (signer?.seed !== seed) signer = { seed, key: signingKeyFromSeed(seed) };
  return signer.key;
}

/** The key set of the stored public keys (`vote-public-key`, parsed). */
export function keySetOfStored(stored: VotePublicKeys): PublishedKeySet {
  const fromRaw = (raw: Uint8Array) => publicKeyFromRaw(Buffer.from(raw).toString('base64url'));
  return keySetOfKeys([
    { key: fromRaw(stored.current), status: 'current' },
    ...(stored.next ? [{ key: fromRaw(stored.next), status: 'next' as const }] : []),
    ...stored.retired.map((r) => ({ key: fromRaw(r.key), status: 'retired' as const, retiredAt: r.retiredAt })),
  ]);
}

let published: { stored: VotePublicKeys; keys: PublishedKeySet } | undefined;

/** Every published key by key id (current, next during a rotation, retired), from its own parameter. */
export function votePublicKeys(): PublishedKeySet {
  const stored = secret('votePublicKey');
  if (published?.stored !== stored) published = { stored, keys: keySetOfStored(stored) };
  return published.keys;
}

/** One key as `GET /api/vote-record/key` publishes it. */
export function publishedKey(publicKey: KeyObject, status: KeyStatus = 'current', retiredAt?: string) {
  const raw = rawPublicKey(publicKey);
  const keyId = keyIdOf(publicKey);
  return {
    keyId,
    algorithm: 'Ed25519' as const,
    publicKey: raw.toString('base64'),
    jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: raw.toString('base64url'), kid: keyId },
    status,
    ...(retiredAt === undefined ? {} : { retiredAt }),
  };
}

/**
 * What `GET /api/vote-record/key` publishes: the current key's fields at the top (the answer's shape
 * before rotation existed, which clients may keep reading), and `keys`, every key a checkpoint of ours
 * may name: current, next (published before it signs), retired (kept for ever).
 */
export function publishedKeys(keys: PublishedKeySet = votePublicKeys()) {
  const list = [...keys.values()].map((k) => publishedKey(k.key, k.status, k.retiredAt));
  const order: Record<KeyStatus, number> = { current: 0, next: 1, retired: 2 };
  list.sort((a, b) => order[a.status] - order[b.status] || (b.retiredAt ?? '').localeCompare(a.retiredAt ?? ''));
  const current = list.find((k) => k.status === 'current')!;
  const { status: _status, ...top } = current;
  return { ...top, keys: list };
}
