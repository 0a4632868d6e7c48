/**
 * The keys of the vote record, kept apart from the table and from each other, read from the secret
 * store (lib/config/secret-values.ts `voteChainKey`, `voteSigningKey`, `votePublicKey`; locally
 * VOTE_CHAIN_KEY and VOTE_SIGNING_KEY, or public dev defaults), each only by the functions whose access
 * class names it (lib/config/access-classes.ts):
 * - the **chain key** (HMAC-SHA-256, >= 32 bytes) seals every log entry (lib/vote-record/entry.ts): the
 *   writes that change ballots and the jobs; a reader of the table alone cannot forge or edit an entry;
 * - the **signing key** (an Ed25519 seed) signs the checkpoints (lib/vote-record/checkpoint.ts): the
 *   vote-checkpoints job only;
 * - its **public half** is published (`GET /api/vote-record/key`), stored apart so that route signs nothing.
 * This is the one interface the rest of the code reads them through.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { secret } from '#lib/config/secrets';
import { signingKeyFromSeed } from '#lib/config/secret-values';
import { keyIdOf, publicKeyFromRaw, rawPublicKey } from '#lib/vote-record/checkpoint';

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

/** The checkpoint signing key (made again only when the stored seed changed). */
export function voteSigningKey(): KeyObject {
  const seed = secret('voteSigningKey');
  if (signer?.seed !== seed) signer = { seed, key: signingKeyFromSeed(seed) };
  return signer.key;
}

let published: { raw: Uint8Array; key: KeyObject } | undefined;

/** The public key checkpoints are checked with, from its own parameter. */
export function votePublicKey(): KeyObject {
  const raw = secret('votePublicKey');
  if (published?.raw !== raw) published = { raw, key: publicKeyFromRaw(Buffer.from(raw).toString('base64url')) };
  return published.key;
}

/** What `GET /api/vote-record/key` publishes. */
export function publishedKey(publicKey: KeyObject = votePublicKey()) {
  const raw = rawPublicKey(publicKey);
  return {
    keyId: keyIdOf(publicKey),
    algorithm: 'Ed25519' as const,
    publicKey: raw.toString('base64'),
    jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: raw.toString('base64url') },
  };
}
