/**
 * Cursor crypto (lib/crypto/*, lib/store/db/cursor.ts): sealed cursors show nothing of what they hold,
 * open only under the scope they were sealed for, and refuse any change to any bit.
 */
import { describe, expect, it } from 'vitest';
import { deriveKey, PURPOSES } from '#lib/crypto/derive-key';
import { open, seal } from '#lib/crypto/sealed-box';
import { canonicalJson, decodeCursor, decodeCursorObject, encodeCursor, encodeCursorObject, listQueryOf, type CursorScope } from '#lib/store/db/cursor';
import { ApiError } from '#lib/errors';

const scope: CursorScope = { siteId: 7, list: 'ideas-by-votes', query: { request: { sort: 'votes_desc' }, store: {} } };
const position = { PK: 'SITE#0000000007', sort: 'votes_desc', yes: 987_654_321, id: 4242 };

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError && err.status === 400 && err.message === 'Invalid cursor';
  }
  return false;
};

describe('key derivation', () => {
  it('gives 32 bytes per purpose, different per purpose and per secret, the same for the same input', () => {
    const secret = new TextEncoder().encode('x'.repeat(40));
    const a = deriveKey(secret, PURPOSES.cursor);
    expect(a).toHaveLength(32);
    expect(deriveKey(secret, PURPOSES.cursor).equals(a)).toBe(true);
    expect(deriveKey(secret, 'another purpose').equals(a)).toBe(false);
    expect(deriveKey(new TextEncoder().encode('y'.repeat(40)), PURPOSES.cursor).equals(a)).toBe(false);
    expect(a.equals(Buffer.from(secret).subarray(0, 32))).toBe(false);
  });

  it('labels every purpose differently from the other keys derived from JWT_SECRET', () => {
    const labels = Object.values(PURPOSES);
    expect(new Set(labels).size).toBe(labels.length);
    // lib/oauth/state.ts and lib/newsletter/token.ts use these labels with HMAC.
    for (const label of labels) expect(['participation-api oauth state v1', 'newsletter-confirm']).not.toContain(label);
  });
});

describe('sealed box (AES-256-GCM)', () => {
  const key = deriveKey(new TextEncoder().encode('k'.repeat(40)), 'test');
  it('opens what it sealed, only with the same key and associated data', () => {
    const token = seal(key, Buffer.from('hello'), 'aad');
    expect(open(key, token, 'aad')?.toString()).toBe('hello');
    expect(open(key, token, 'aad2')).toBeUndefined();
    expect(open(deriveKey(new TextEncoder().encode('j'.repeat(40)), 'test'), token, 'aad')).toBeUndefined();
  });

  it('seals the same plaintext differently each time (random IV)', () => {
    expect(seal(key, Buffer.from('x'), 'a')).not.toBe(seal(key, Buffer.from('x'), 'a'));
  });

  it('refuses a token with any single bit flipped, cut short or lengthened', () => {
    const token = seal(key, Buffer.from('a cursor'), 'aad');
    const raw = Buffer.from(token, 'base64url');
    for (let bit = 0; bit < raw.length * 8; bit++) {
      const flipped = Buffer.from(raw);
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      expect(open(key, flipped.toString('base64url'), 'aad'), `bit ${bit}`).toBeUndefined();
    }
    expect(open(key, token.slice(0, -1), 'aad')).toBeUndefined();
    expect(open(key, `${token}A`, 'aad')).toBeUndefined();
    expect(open(key, `${token}AAAA`, 'aad')).toBeUndefined();
    expect(open(key, '', 'aad')).toBeUndefined();
    expect(open(key, 'not base64url!', 'aad')).toBeUndefined();
  });
});

describe('cursors', () => {
  it('show no field, number or key of what they hold, and all have one length', () => {
    const cursor = encodeCursorObject(position, scope);
    const bytes = Buffer.from(cursor, 'base64url');
    for (const text of [cursor, bytes.toString('latin1'), bytes.toString('utf8')]) {
      for (const secret of ['987654321', '4242', 'SITE', 'votes_desc', 'yes', '{"']) expect(text).not.toContain(secret);
    }
    // Padding: the number of digits inside does not change the length.
    const small = encodeCursorObject({ ...position, yes: 0, id: 1 }, scope);
    expect(small.length).toBe(cursor.length);
  });

  it('open only under the scope they were sealed for: another site, list or query is a 400', () => {
    const cursor = encodeCursorObject(position, scope);
    expect(decodeCursorObject(cursor, scope)).toEqual(position);
    expect(refused(() => decodeCursorObject(cursor, { ...scope, siteId: 8 }))).toBe(true);
    expect(refused(() => decodeCursorObject(cursor, { ...scope, siteId: null }))).toBe(true);
    expect(refused(() => decodeCursorObject(cursor, { ...scope, list: 'ideas' }))).toBe(true);
    expect(refused(() => decodeCursorObject(cursor, { ...scope, query: { request: { sort: 'votes_asc' }, store: {} } }))).toBe(true);
    expect(refused(() => decodeCursorObject(cursor, { ...scope, query: { request: { sort: 'votes_desc', selectRunning: true }, store: {} } }))).toBe(true);
  });

  it('bind to the query in canonical form: key order and absent parameters do not matter, pageSize, cursor and presentation flags are not part', () => {
    const a = listQueryOf({ pageSize: 1, cursor: 'x', sort: 'votes_desc', selectRunning: false, tag: undefined, includeVoteCount: true });
    const b = listQueryOf({ selectRunning: false, sort: 'votes_desc', pageSize: 500, withUserVote: false, includeUser: true });
    expect(b).toEqual({ selectRunning: false, sort: 'votes_desc' });
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    const cursor = encodeCursorObject(position, { ...scope, query: a });
    expect(decodeCursorObject(cursor, { ...scope, query: b })).toEqual(position);
    expect(canonicalJson({ b: [1, { d: 1, c: undefined }], a: null })).toBe('{"a":null,"b":[1,{"d":1}]}');
  });

  it('refuse a readable cursor of the old form and an over-long one', () => {
    const readable = Buffer.from(JSON.stringify(position)).toString('base64url');
    expect(refused(() => decodeCursorObject(readable, scope))).toBe(true);
    expect(refused(() => decodeCursorObject('A'.repeat(3000), scope))).toBe(true);
  });

  // Regression (hostile suite): an opened key must still be exactly the index's key, each a string,
  // in the right partition, or DynamoDB refuses it as ExclusiveStartKey (a 500).
  it('key cursors: an opened key with missing, extra or non-string attributes, or another partition, is a 400', () => {
    const expected = { values: { PK: 'SITE#0000000007' }, skPrefix: 'USER#', keyAttributes: ['PK', 'SK'] };
    const real = { PK: 'SITE#0000000007', SK: 'USER#0000000002' };
    expect(decodeCursor(encodeCursor(real, scope)!, scope, expected)).toEqual(real);
    for (const key of [{ PK: real.PK }, { ...real, version: 1 }, { ...real, SK: 2 }, { ...real, PK: 'SITE#0000000008' }, { ...real, SK: 'IDEA#0000000001' }]) {
      expect(refused(() => decodeCursor(encodeCursor(key, scope)!, scope, expected)), JSON.stringify(key)).toBe(true);
    }
    expect(decodeCursor(undefined, scope, expected)).toBeUndefined();
    expect(encodeCursor(undefined, scope)).toBeNull();
  });
});
