/**
 * Opaque page cursors. A cursor is the DynamoDB LastEvaluatedKey, base64url-encoded; on the way back
 * in it is checked so that a client can neither crash a query nor walk into another site's partition.
 */
import { badRequest } from '#lib/http/errors';

type KeyRecord = Record<string, string | number>;

export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  if (!key) return null;
  return encodeCursorObject(key);
}

/**
 * The JSON object inside an opaque cursor, or a 400: base64url only, bounded length, an object. The
 * callers check its fields.
 */
export function decodeCursorObject(cursor: string, maxLength = 2048): Record<string, unknown> {
  const bad = () => badRequest('Invalid cursor');
  if (cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
  return parsed as Record<string, unknown>;
}

export const encodeCursorObject = (value: Record<string, unknown>): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * @param expected attribute values the key must carry (e.g. `{PK: 'SITE#3'}`), and an optional SK
 *   prefix, so a cursor only ever continues the query it came from. `keyAttributes`, when given, are
 *   exactly the attributes the key must have, each a string: DynamoDB refuses an ExclusiveStartKey
 *   with a key attribute missing or one attribute too many (a 500 unless caught here), and a JSON
 *   `__proto__` member would be dropped on its way to DynamoDB rather than refused.
 */
export function decodeCursor(
  cursor: string | undefined,
  expected: { values?: Record<string, string>; skPrefix?: string; skAttribute?: string; keyAttributes?: readonly string[] } = {},
): KeyRecord | undefined {
  if (cursor === undefined) return undefined;
  const bad = () => badRequest('Invalid cursor');
  const parsed = decodeCursorObject(cursor);
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
