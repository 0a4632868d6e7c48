/**
 * Keys derived from the server key (lib/config/secret-values.ts `serverKey`; JWT_SECRET locally), one per purpose: HKDF-SHA256 (RFC 5869) with
 * the purpose as `info`, so a key of one use (cursor encryption, ...) tells nothing about the secret
 * or about the key of any other use, and two uses can never stand in for each other.
 *
 * Every `info` label in use is listed in PURPOSES, so a new one cannot silently reuse an old one.
 * (The OAuth state and newsletter tokens predate this helper and derive theirs with HMAC and their
 * own labels, lib/oauth/state.ts and lib/newsletter/token.ts; they may move here.)
 */
import { hkdfSync } from 'node:crypto';
import { secret } from '#lib/config/secrets';

export const PURPOSES = {
  /** AES-256-GCM key of list cursors (lib/store/db/cursor.ts). */
  cursor: 'participation-api cursor encryption v1',
  /** Retired (Pabulib voter ids are keyed per export now, lib/results/export.ts); listed so the label is never reused. */
  pabulibVoter: 'participation-api pabulib voter id v1',
  /** Key of the permutation that makes vote ids (lib/votes/ids.ts): ids that reveal nothing of the voter. */
  voteIds: 'participation-api vote ids v1',
  /** HMAC key of a site's role-floor items (lib/store/users/role-floor.ts): (site, auth server, external id) -> key. */
  roleFloor: 'participation-api role floor v1',
} as const;

type Purpose = keyof typeof PURPOSES;

/** Fixed, public salt: HKDF's extract step only needs it to be constant for a deployment. */
const SALT = Buffer.from('participation-api key derivation', 'utf8');

/** A 32-byte key for `info`, from `secret` (pure; tests call it with their own secret). */
export function deriveKey(secret: Uint8Array, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, Buffer.from(info, 'utf8'), 32));
}

/** Keys derived from one server key value; a new value (the store's, after a refresh) starts a new cache. */
let cache: { from: Uint8Array; keys: Map<Purpose, Buffer> } | undefined;

/** The key of a purpose from the server key, derived once per container and key value. */
export function purposeKey(purpose: Purpose): Buffer {
  const root = secret('serverKey');
  if (cache?.from !== root) cache = { from: root, keys: new Map() };
  let key = cache.keys.get(purpose);
  if (!key) {
    key = deriveKey(root, PURPOSES[purpose]);
    cache.keys.set(purpose, key);
  }
  return key;
}
