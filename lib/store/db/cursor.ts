/**
 * Opaque page cursors (CONTRACT "Decided details, security"): authenticated encryption of the
 * position a list stopped at (a DynamoDB LastEvaluatedKey, or a position such as `(yes, id)`), so a
 * cursor shows no field of any record (no vote count of a site that hides them, no user id), and a
 * cursor that was altered in any bit, or that belongs to another site, another list or another query,
 * does not open: 400.
 *
 * The binding is the AEAD's associated data (lib/crypto/sealed-box.ts): the site id, the list's name
 * and a canonical form of the parameters that shape the list, namely the client's parsed query
 * (everything but `pageSize`, `cursor` and the presentation flags: sort and filters stay as they
 * were, the page size and the fields shown may change between pages) and the store's own options
 * (index, order, filters). The plaintext is padded to a fixed block, so not even
 * its length varies with the numbers inside.
 *
 * What opens is still checked field by field by the callers (defence in depth, and so a cursor of an
 * older layout, sealed under the same key, is refused rather than misread).
 */
import { badRequest } from '#lib/errors';
import { purposeKey } from '#lib/crypto/derive-key';
import { open, seal } from '#lib/crypto/sealed-box';

type KeyRecord = Record<string, string | number>;

/** What a cursor is bound to. */
export interface CursorScope {
  /** The site whose list it is; null for the site list itself. */
  siteId: number | null;
  /** One name per list (per access pattern): `ideas`, `ideas-by-votes`, `users`, `votes` ... */
  list: string;
  /** The parameters that shape the list (see listQueryOf), any JSON. */
  query: Record<string, unknown>;
}

/** Plaintexts are padded with spaces (JSON ignores them) to a multiple of this. */
const PAD_BLOCK = 128;

/** JSON with object keys sorted at every level and `undefined` members left out: one text per value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Presentation flags (`includeVoteCount`, `includeUser`, `withVoteCount` ...) add fields to the records
 * of a page; they change neither which records a list holds nor their order, so a client may switch
 * them between pages.
 */
const PRESENTATION_FLAG = /^(?:include|with)[A-Z]/;

/** The list-shaping part of a parsed list query: all of it but `pageSize`, `cursor` and presentation flags. */
export function listQueryOf(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).filter(([name]) => name !== 'pageSize' && name !== 'cursor' && !PRESENTATION_FLAG.test(name)),
  );
}

const aadOf = (scope: CursorScope) => canonicalJson(['cursor', scope.siteId, scope.list, scope.query]);

export function encodeCursorObject(value: Record<string, unknown>, scope: CursorScope): string {
  const json = JSON.stringify(value);
  const length = Buffer.byteLength(json, 'utf8');
  const padded = json + ' '.repeat(Math.ceil(Math.max(length, 1) / PAD_BLOCK) * PAD_BLOCK - length);
  return seal(purposeKey('cursor'), Buffer.from(padded, 'utf8'), aadOf(scope));
}

/**
 * The JSON object inside a cursor sealed for `scope`, or a 400: bounded length, our own sealing, this
 * very scope, an object. The callers check its fields.
 */
export function decodeCursorObject(cursor: string, scope: CursorScope, maxLength = 2048): Record<string, unknown> {
  const bad = () => badRequest('Invalid cursor');
  if (cursor.length > maxLength) throw bad();
  const plaintext = open(purposeKey('cursor'), cursor, aadOf(scope));
  if (!plaintext) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
  return parsed as Record<string, unknown>;
}

export function encodeCursor(key: Record<string, unknown> | undefined, scope: CursorScope): string | null {
  if (!key) return null;
  return encodeCursorObject(key, scope);
}

/**
 * @param expected attribute values the key must carry (e.g. `{PK: 'SITE#3'}`), and an optional SK
 *   prefix, so a cursor only ever continues the query it came from. `keyAttributes`, when given, are
 *   exactly the attributes the key must have, each a string: DynamoDB refuses an ExclusiveStartKey
 *   with a key attribute missing or one attribute too many (a 500 unless caught here).
 */
export function decodeCursor(
  cursor: string | undefined,
  scope: CursorScope,
  expected: { values?: Record<string, string>; skPrefix?: string; skAttribute?: string; keyAttributes?: readonly string[] } = {},
): KeyRecord | undefined {
  if (cursor === undefined) return undefined;
  const bad = () => badRequest('Invalid cursor');
  const parsed = decodeCursorObject(cursor, scope);
  const entries = Object.entries(parsed);
  if (entries.length === 0 || entries.length > 6) throw bad();
  for (const [name, value] of entries) {
    if (!/^[A-Za-z0-9_]{1,32}$/.test(name)) throw bad();
    if (typeof value === 'string' ? value.length > 1024 : typeof value !== 'number' || !Number.isFinite(value)) {
      throw bad();
    }
  }
  const key = parsed as KeyRecord;
  if (expected.keyAttributes !== undefined) {
    const names = new Set(expected.keyAttributes);
    if (entries.length !== names.size || entries.some(([name, value]) => !names.has(name) || typeof value !== 'string')) throw bad();
  }
  for (const [name, value] of Object.entries(expected.values ?? {})) {
    if (key[name] !== value) throw bad();
  }
  if (expected.skPrefix !== undefined) {
    const sk = key[expected.skAttribute ?? 'SK'];
    if (typeof sk !== 'string' || !sk.startsWith(expected.skPrefix)) throw bad();
  }
  return key;
}
