/**
 * The server's secrets, one declaration each: the parameter it is stored under, how a stored value
 * is read and checked, how a fresh one is made, and what the local stage uses instead. Everything
 * that handles secrets reads this list: the loader (lib/store/secrets/load.ts, lib/config/secrets.ts), the bootstrap and check
 * commands (scripts/secrets.ts, which the deploy runs), and the IAM policy (a class that reads
 * secrets may read every parameter under the stage's path, serverless.yml).
 *
 * Adding a secret is adding one entry to SECRETS (docs/deploy.md "Adding a secret"): its parse
 * refuses what must never be deployed, its generate is what `npm run secrets -- init` stores.
 *
 * The stored values are text (SSM SecureString). Keys are base64url of at least 32 random bytes;
 * service tokens are stored as SHA-256 hashes only, so the store never holds a usable token.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, randomBytes } from 'node:crypto';

/** What a declaration reads on the local stage (npm start, tests). */
interface LocalSource {
  JWT_SECRET?: string | undefined;
  API_SERVICE_TOKENS?: string | undefined;
  VOTE_CHAIN_KEY?: string | undefined;
  VOTE_SIGNING_KEY?: string | undefined;
}

export interface SecretDeclaration<T> {
  /** The parameter's name under the stage's path (`/<service>/<stage>/<parameter>`). */
  parameter: string;
  /** One line for the operator (`npm run secrets -- list`). */
  description: string;
  /** Reads and checks a stored value; throws an error that names the fix for a weak or dev value. */
  parse(stored: string, options?: { allowDevValues?: boolean }): T;
  /** A fresh, strong stored value (never printed). */
  generate(): string;
  /** The stored value the local stage uses, from its environment (dev defaults when unset). */
  local(source: LocalSource): string;
  /**
   * A value that is not drawn but follows from another secret's stored value (a public half): `init`
   * stores `value` from that secret, `check` refuses a stored value that does not `follow` from it.
   */
  derived?: { from: string; value(fromStored: string): string; follows(fromStored: string, stored: string): boolean };
  /**
   * A held value is used only within the secrets cache's max age of its fetch, never longer when the
   * store stops answering (lib/config/secrets.ts): the vote key rotation's times count on it (a key is
   * retired at the seed write plus that max age, and the published list changes within it).
   */
  withinMaxAgeOnly?: true;
}

/** Dev values: public (they are in this file), accepted on the local stage only and refused on every other. */
export const DEV_JWT_SECRET = 'local-dev-jwt-secret-change-me-0123456789abcdef';
export const DEV_SERVICE_TOKEN = 'local-dev-service-token';

const MIN_KEY_BYTES = 32;
const MIN_SERVICE_TOKEN_LENGTH = 32;

export class WeakSecretError extends Error {
  override name = 'WeakSecretError';
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const newKey = (): string => base64url(randomBytes(48));
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A key as stored: base64url text of >= 32 bytes (the local stage: any text of >= 32 bytes, as JWT_SECRET always was). */
function keyBytes(text: unknown, what: string, allowDev: boolean): Uint8Array {
  if (typeof text !== 'string' || text.length === 0) throw new WeakSecretError(`${what} is empty`);
  const bytes = allowDev ? new TextEncoder().encode(text) : Buffer.from(text, 'base64url');
  if (!allowDev && bytes.length > 0 && base64url(bytes) !== text) throw new WeakSecretError(`${what} is not base64url`);
  if (bytes.length < MIN_KEY_BYTES) throw new WeakSecretError(`${what} is shorter than ${MIN_KEY_BYTES} bytes`);
  if (!allowDev && text === DEV_JWT_SECRET) throw new WeakSecretError(`${what} is the public dev default`);
  return bytes;
}

export interface SigningKey {
  kid: string;
  key: Uint8Array;
}

/**
 * The API's JWT keys. `current` signs; `current`, `next` and `previous` verify, each chosen by the
 * token's `kid`. Rotation (docs/deploy.md "Rotating the token key") adds `next` first, so every
 * container verifies it before any signs with it, then promotes it, and drops `previous` once the
 * tokens it signed have expired: nobody is logged out.
 */
interface TokenKeys {
  current: SigningKey;
  next: SigningKey | null;
  previous: SigningKey | null;
}

interface StoredKey {
  kid: string;
  key: string;
}

const KID = /^[A-Za-z0-9._-]{1,64}$/;

function signingKey(stored: unknown, slot: string, allowDev: boolean): SigningKey {
  const { kid, key } = (stored ?? {}) as Partial<StoredKey>;
  if (typeof kid !== 'string' || !KID.test(kid)) throw new WeakSecretError(`token-keys ${slot}.kid must match ${KID.source}`);
  return { kid, key: keyBytes(key, `token-keys ${slot}.key`, allowDev) };
}

/** A new key id: the date, so an operator sees which key is which, and random bits, so two rotations a day differ. */
const newKid = (now = new Date()): string => `${now.toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`;

export const storedKey = (): StoredKey => ({ kid: newKid(), key: newKey() });

const TOKEN_KEYS_FORM = '{"current":{"kid","key"},"next":null,"previous":null}';

/** The stored token keys in their stored form (texts), their strength unchecked; refused, never quoted, when not of that form. */
export function tokenKeyTexts(stored: string): { current: StoredKey; next: StoredKey | null; previous: StoredKey | null } {
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    throw new WeakSecretError(`token-keys is not JSON ${TOKEN_KEYS_FORM}`);
  }
  const slot = (v: unknown): v is StoredKey => typeof v === 'object' && v !== null && typeof (v as StoredKey).kid === 'string' && typeof (v as StoredKey).key === 'string';
  const { current, next = null, previous = null } = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  if (!slot(current) || (next !== null && !slot(next)) || (previous !== null && !slot(previous))) throw new WeakSecretError(`token-keys is not JSON ${TOKEN_KEYS_FORM}`);
  return { current: { kid: current.kid, key: current.key }, next: next && { kid: next.kid, key: next.key }, previous: previous && { kid: previous.kid, key: previous.key } };
}

const tokenKeys: SecretDeclaration<TokenKeys> = {
  parameter: 'token-keys',
  description: 'JWT signing keys (current signs; current, next and previous verify, by kid)',
  parse(stored, { allowDevValues = false } = {}) {
    let value: { current?: unknown; next?: unknown; previous?: unknown };
    try {
      value = JSON.parse(stored) as typeof value;
    } catch {
      throw new WeakSecretError(`token-keys is not JSON ${TOKEN_KEYS_FORM}`);
    }
    if (typeof value !== 'object' || value === null) throw new WeakSecretError(`token-keys is not JSON ${TOKEN_KEYS_FORM}`);
    const current = signingKey(value.current, 'current', allowDevValues);
    const next = value.next ? signingKey(value.next, 'next', allowDevValues) : null;
    const previous = value.previous ? signingKey(value.previous, 'previous', allowDevValues) : null;
    const kids = [current, next, previous].filter((k) => k !== null).map((k) => k.kid);
    if (new Set(kids).size !== kids.length) throw new WeakSecretError('token-keys: two keys share a kid');
    return { current, next, previous };
  },
  generate: () => JSON.stringify({ current: storedKey(), next: null, previous: null }),
  local: ({ JWT_SECRET }) => JSON.stringify({ current: { kid: 'local', key: JWT_SECRET || DEV_JWT_SECRET }, next: null, previous: null }),
};

/**
 * The root of the keys derived per purpose (cursors, login states, role floors, Pabulib voter ids,
 * newsletter confirm tokens; lib/crypto/derive-key.ts). Apart from the token keys on purpose: what
 * it derives is stored (role floors, pending newsletter tokens), so it is not rotated with them.
 */
const serverKey: SecretDeclaration<Uint8Array> = {
  parameter: 'server-key',
  description: 'root of the derived keys (cursors, login states, role floors, export ids, newsletter tokens)',
  parse: (stored, { allowDevValues = false } = {}) => keyBytes(stored, 'server-key', allowDevValues),
  generate: newKey,
  local: ({ JWT_SECRET }) => JWT_SECRET || DEV_JWT_SECRET,
};

export interface ServiceTokenHash {
  /** Who holds it (the CMS, an ops script): shown in logs and `npm run secrets -- list`, never the token. */
  name: string;
  sha256: string;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Service tokens, as SHA-256 hashes: a token is checked by hashing what is presented
 * (lib/auth/service-tokens.ts). Tokens are made by `npm run secrets -- service-token add`, which
 * stores the hash and hands the token over once; a token given by hand must have >= 32 characters.
 */
const serviceTokens: SecretDeclaration<ServiceTokenHash[]> = {
  parameter: 'service-tokens',
  description: 'service tokens (CMS, ops scripts; admin on every site), as SHA-256 hashes',
  parse(stored, { allowDevValues = false } = {}) {
    let value: unknown;
    try {
      value = JSON.parse(stored);
    } catch {
      throw new WeakSecretError('service-tokens is not a JSON list of {"name","sha256"}');
    }
    if (!Array.isArray(value)) throw new WeakSecretError('service-tokens is not a JSON list of {"name","sha256"}');
    const hashes = value.map((entry: Partial<ServiceTokenHash>, i) => {
      if (typeof entry?.name !== 'string' || !entry.name) throw new WeakSecretError(`service-tokens[${i}] has no name`);
      if (typeof entry.sha256 !== 'string' || !HEX_SHA256.test(entry.sha256)) throw new WeakSecretError(`service-tokens[${i}] (${entry.name}) is not a SHA-256 hash in hex`);
      if (!allowDevValues && entry.sha256 === sha256Hex(DEV_SERVICE_TOKEN)) throw new WeakSecretError(`service-tokens[${i}] (${entry.name}) is the public dev token`);
      return { name: entry.name, sha256: entry.sha256 };
    });
    if (!allowDevValues && hashes.length === 0) throw new WeakSecretError('service-tokens is empty: nobody could create a site');
    return hashes;
  },
  generate: () => JSON.stringify([]),
  local: ({ API_SERVICE_TOKENS }) => {
    const tokens = (API_SERVICE_TOKENS ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    return JSON.stringify((tokens.length ? tokens : [DEV_SERVICE_TOKEN]).map((token, i) => ({ name: `env-${i + 1}`, sha256: sha256Hex(token) })));
  },
};

/** A token made by hand (imported with `service-token add --from-stdin`) must be this strong. */
export function checkServiceToken(token: string): void {
  if (token.length < MIN_SERVICE_TOKEN_LENGTH) throw new WeakSecretError(`a service token must have at least ${MIN_SERVICE_TOKEN_LENGTH} characters`);
  if (token === DEV_SERVICE_TOKEN) throw new WeakSecretError('that is the public dev service token');
}

/** Public dev values of the vote record's keys (base64url): accepted on the local stage only. */
export const DEV_VOTE_CHAIN_KEY = createHash('sha256').update('participation-api local dev vote chain key').digest('base64url');
const DEV_VOTE_SIGNING_SEED = createHash('sha256').update('participation-api local dev vote signing key').digest('base64url');

/** Raw bytes stored as base64url: exactly `length` of them, or at least `min`. */
function rawKey(text: string, what: string, allowDev: boolean, dev: string, size: { exactly?: number; min?: number }): Uint8Array {
  const value = text || (allowDev ? dev : '');
  if (!value) throw new WeakSecretError(`${what} is empty`);
  const bytes = Buffer.from(value, 'base64url');
  if (base64url(bytes) !== value) throw new WeakSecretError(`${what} is not base64url`);
  if (size.exactly !== undefined && bytes.length !== size.exactly) throw new WeakSecretError(`${what} must be ${size.exactly} bytes`);
  if (size.min !== undefined && bytes.length < size.min) throw new WeakSecretError(`${what} is shorter than ${size.min} bytes`);
  if (!allowDev && value === dev) throw new WeakSecretError(`${what} is the public dev default`);
  return bytes;
}

/**
 * The vote record's chain key (docs/results.md "The vote record"): HMAC-SHA-256 key that seals every
 * log entry. The table never holds it, so database access alone cannot forge or edit an entry. Never
 * rotated while a site's log is open (every entry is checked with it); it is kept apart from the
 * server key so neither tells anything of the other.
 */
export const voteChainKey: SecretDeclaration<Uint8Array> = {
  parameter: 'vote-chain-key',
  description: 'seals every vote log entry (HMAC-SHA-256); never in the table',
  parse: (stored, { allowDevValues = false } = {}) => rawKey(stored, 'vote-chain-key', allowDevValues, DEV_VOTE_CHAIN_KEY, { min: MIN_KEY_BYTES }),
  generate: () => base64url(randomBytes(32)),
  local: ({ VOTE_CHAIN_KEY }) => VOTE_CHAIN_KEY || DEV_VOTE_CHAIN_KEY,
};

/** PKCS #8 wrapping of a raw Ed25519 seed (RFC 8410): this prefix, then the 32 bytes. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function signingKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('An Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The raw public key (32 bytes, base64url) of a seed (base64url). */
export const publicOfSeed = (seedText: string): string => {
  const jwk = createPublicKey(signingKeyFromSeed(Buffer.from(seedText, 'base64url'))).export({ format: 'jwk' });
  return String(jwk.x);
};

/**
 * The signing seeds: `current` signs; `next` is a rotation's new seed, stored (and its public half
 * published) before it signs anything (`npm run secrets -- rotate-vote-key`, docs/deploy.md).
 */
interface VoteSigningSeeds {
  current: Uint8Array;
  next: Uint8Array | null;
}

/** A JSON value of the key slots, or undefined for a bare base64url value (the form before rotation existed). */
function slotsOf(stored: string, what: string, form: string): Record<string, unknown> | undefined {
  if (!stored.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(stored);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new WeakSecretError(`${what} is neither base64url nor JSON ${form}`);
}

const SEEDS_FORM = '{"current":"<seed>","next":"<seed>"|null}';

/** The stored seeds as text: `current` and `next` (null when no rotation is under way). */
export function seedTexts(stored: string): { current: string; next: string | null } {
  const slots = slotsOf(stored, 'vote-signing-key', SEEDS_FORM);
  if (!slots) return { current: stored, next: null };
  const { current, next } = slots;
  if (typeof current !== 'string' || (next !== null && next !== undefined && typeof next !== 'string')) throw new WeakSecretError(`vote-signing-key is not JSON ${SEEDS_FORM}`);
  return { current, next: typeof next === 'string' ? next : null };
}

/**
 * The Ed25519 seeds (32 bytes) that sign the vote log's checkpoints: a bare seed, or `{current, next}`
 * while a rotation is under way. Only the vote-checkpoints job reads it (its own access class); an
 * operator holding this key and the database could sign a second history (docs/results.md "Threat model").
 */
export const voteSigningKey: SecretDeclaration<VoteSigningSeeds> = {
  parameter: 'vote-signing-key',
  description: 'Ed25519 seed signing the vote checkpoints, and the next one during a rotation (only the vote-checkpoints job reads it)',
  parse(stored, { allowDevValues = false } = {}) {
    const texts = seedTexts(stored);
    const seed = (text: string, slot: string) => rawKey(text, `vote-signing-key ${slot}`, allowDevValues, DEV_VOTE_SIGNING_SEED, { exactly: 32 });
    const current = seed(texts.current, 'current');
    const next = texts.next === null ? null : seed(texts.next, 'next');
    if (next && Buffer.from(next).equals(Buffer.from(current))) throw new WeakSecretError('vote-signing-key: the next seed is the current one');
    return { current, next };
  },
  generate: () => base64url(randomBytes(32)),
  local: ({ VOTE_SIGNING_KEY }) => VOTE_SIGNING_KEY || DEV_VOTE_SIGNING_SEED,
  withinMaxAgeOnly: true,
};

export interface RetiredPublicKey {
  key: Uint8Array;
  /** No checkpoint of ours is signed with it after this instant (ISO). */
  retiredAt: string;
}

/** The published keys: the current signer's, the next one's during a rotation, and every retired one. */
export interface VotePublicKeys {
  current: Uint8Array;
  next: Uint8Array | null;
  retired: RetiredPublicKey[];
}

const PUBLIC_FORM = '{"current":"<key>","next":"<key>"|null,"retired":[{"key":"<key>","retiredAt":"<ISO time>"}]}';

/** The public keys as text, in the stored JSON form. */
interface VotePublicKeyTexts {
  current: string;
  next: string | null;
  retired: { key: string; retiredAt: string }[];
}

export function votePublicKeyTexts(stored: string): VotePublicKeyTexts {
  const slots = slotsOf(stored, 'vote-public-key', PUBLIC_FORM);
  if (!slots) return { current: stored, next: null, retired: [] };
  const { current, next, retired = [] } = slots;
  const retiredOk =
    Array.isArray(retired) &&
    retired.every((r: { key?: unknown; retiredAt?: unknown } | null) => typeof r?.key === 'string' && typeof r.retiredAt === 'string' && Number.isFinite(Date.parse(r.retiredAt)));
  if (typeof current !== 'string' || (next !== null && next !== undefined && typeof next !== 'string') || !retiredOk) {
    throw new WeakSecretError(`vote-public-key is not JSON ${PUBLIC_FORM}`);
  }
  return { current, next: typeof next === 'string' ? next : null, retired: retired as { key: string; retiredAt: string }[] };
}

/** The public keys that follow from the stored seeds, with the retired ones of `stored` (none when absent). */
function publicKeysOfSeeds(seedsStored: string, stored?: string): VotePublicKeyTexts {
  const seeds = seedTexts(seedsStored);
  return { current: publicOfSeed(seeds.current), next: seeds.next === null ? null : publicOfSeed(seeds.next), retired: stored ? votePublicKeyTexts(stored).retired : [] };
}

/**
 * The public halves of the signing seeds, published at `GET /api/vote-record/key`, with every key that
 * signed before a rotation (retired, kept for ever). Stored apart so the route that publishes them reads
 * no private key; `init` derives it from the seeds, `check` refuses a current or next key that is not
 * the seeds' (the deploy runs `check`), and `rotate-vote-key` moves a key along.
 */
const votePublicKey: SecretDeclaration<VotePublicKeys> = {
  parameter: 'vote-public-key',
  description: 'Ed25519 public keys of vote-signing-key (published; current and next follow from the seeds, retired ones are kept)',
  parse(stored, { allowDevValues = false } = {}) {
    const texts = votePublicKeyTexts(stored);
    const devPublic = publicOfSeed(DEV_VOTE_SIGNING_SEED);
    const key = (text: string, slot: string) => rawKey(text, `vote-public-key ${slot}`, allowDevValues, devPublic, { exactly: 32 });
    const current = key(texts.current, 'current');
    const next = texts.next === null ? null : key(texts.next, 'next');
    const retired = texts.retired.map((r, i) => ({ key: key(r.key, `retired[${i}]`), retiredAt: new Date(r.retiredAt).toISOString() }));
    const all = [current, ...(next ? [next] : []), ...retired.map((r) => r.key)].map((k) => Buffer.from(k).toString('hex'));
    if (new Set(all).size !== all.length) throw new WeakSecretError('vote-public-key lists one key twice');
    return { current, next, retired };
  },
  generate: () => {
    throw new Error('vote-public-key follows from vote-signing-key');
  },
  local: ({ VOTE_SIGNING_KEY }) => publicOfSeed(VOTE_SIGNING_KEY || DEV_VOTE_SIGNING_SEED),
  withinMaxAgeOnly: true,
  derived: {
    from: 'voteSigningKey',
    value: (seeds) => JSON.stringify(publicKeysOfSeeds(seeds)),
    follows(seeds, stored) {
      const expected = publicKeysOfSeeds(seeds);
      const texts = votePublicKeyTexts(stored);
      return texts.current === expected.current && texts.next === expected.next;
    },
  },
};

/** Every secret, by the name code asks for it with (`secret('tokenKeys')`). */
export const SECRETS = { tokenKeys, serverKey, serviceTokens, voteChainKey, voteSigningKey, votePublicKey } as const;

export type SecretName = keyof typeof SECRETS;
export type SecretValue<N extends SecretName> = (typeof SECRETS)[N] extends SecretDeclaration<infer T> ? T : never;

/** The stage's parameter path: `/<service>/<stage>/`; each secret is `<path><parameter>`. */
export const secretsPath = (service: string, stage: string): string => `/${service}/${stage}/`;
