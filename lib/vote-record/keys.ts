/**
 * The two keys of the vote record, kept apart from the table and from each other:
 * - the **chain key** (HMAC-SHA-256, >= 32 bytes) seals every log entry (lib/vote-record/entry.ts). The
 *   functions that write ballots need it; a reader of the table alone cannot forge or edit an entry;
 * - the **signing key** (Ed25519) signs the checkpoints (lib/vote-record/checkpoint.ts). Only the
 *   checkpoint job needs it; its public half is published (`GET /api/vote-record/key`).
 *
 * Read once per container (cold start) through `voteRecordKeys()`, the one interface the rest of the
 * code uses. Values (both base64url): VOTE_CHAIN_KEY, and VOTE_SIGNING_KEY, the 32-byte Ed25519 seed
 * (`newVoteRecordKeyValues` makes a fresh pair for a new stage). On the local stage a missing value falls
 * back to a public dev default, so `npm start` needs nothing; on any other stage a missing or short
 * value stops the function here, loudly.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { env } from '#lib/config/env';
import { keyIdOf, rawPublicKey } from '#lib/vote-record/checkpoint';

export interface VoteRecordKeys {
  chainKey: Uint8Array;
  signingKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
}

/** Public dev values: accepted on the local stage only. */
const DEV_CHAIN_KEY = createHash('sha256').update('participation-api local dev vote chain key').digest('base64url');
const DEV_SIGNING_SEED = createHash('sha256').update('participation-api local dev vote signing key').digest('base64url');

const MIN_CHAIN_KEY_BYTES = 32;
/** PKCS #8 wrapping of a raw Ed25519 seed (RFC 8410): this prefix, then the 32 bytes. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function signingKeyFromSeed(seed: string): KeyObject {
  const bytes = Buffer.from(seed, 'base64url');
  if (bytes.length !== 32) throw new Error('VOTE_SIGNING_KEY must be a 32-byte Ed25519 seed, base64url');
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, bytes]), format: 'der', type: 'pkcs8' });
}

export interface KeySource {
  VOTE_CHAIN_KEY?: string | undefined;
  VOTE_SIGNING_KEY?: string | undefined;
}

/** The keys from their stored values; `allowDev` (the local stage) fills in the dev defaults. */
export function readVoteRecordKeys(source: KeySource, allowDev: boolean): VoteRecordKeys {
  const chainText = source.VOTE_CHAIN_KEY || (allowDev ? DEV_CHAIN_KEY : '');
  const seedText = source.VOTE_SIGNING_KEY || (allowDev ? DEV_SIGNING_SEED : '');
  const chainKey = Buffer.from(chainText, 'base64url');
  if (chainKey.length < MIN_CHAIN_KEY_BYTES) throw new Error(`VOTE_CHAIN_KEY is missing or shorter than ${MIN_CHAIN_KEY_BYTES} bytes; refusing to start`);
  if (!allowDev && (chainText === DEV_CHAIN_KEY || seedText === DEV_SIGNING_SEED)) throw new Error('A vote record key is the public dev default; refusing to start');
  if (!seedText) throw new Error('VOTE_SIGNING_KEY is missing; refusing to start');
  const signingKey = signingKeyFromSeed(seedText);
  const publicKey = createPublicKey(signingKey);
  return { chainKey, signingKey, publicKey, keyId: keyIdOf(publicKey) };
}

let cached: VoteRecordKeys | undefined;

export function voteRecordKeys(): VoteRecordKeys {
  cached ??= readVoteRecordKeys({ VOTE_CHAIN_KEY: process.env.VOTE_CHAIN_KEY, VOTE_SIGNING_KEY: process.env.VOTE_SIGNING_KEY }, env().isLocalStage);
  return cached;
}

/** What `GET /api/vote-record/key` publishes. */
export function publishedKey(keys: VoteRecordKeys = voteRecordKeys()) {
  const raw = rawPublicKey(keys.publicKey);
  return {
    keyId: keys.keyId,
    algorithm: 'Ed25519' as const,
    publicKey: raw.toString('base64'),
    jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: raw.toString('base64url') },
  };
}

/** Fresh values for a new stage (never logged by the code: the operator stores them). */
export function newVoteRecordKeyValues(): Required<KeySource> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  return { VOTE_CHAIN_KEY: randomBytes(32).toString('base64url'), VOTE_SIGNING_KEY: der.subarray(ED25519_PKCS8_PREFIX.length).toString('base64url') };
}
