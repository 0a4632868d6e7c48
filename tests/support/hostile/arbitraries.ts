/**
 * fast-check arbitraries of hostile input: bad ids, bad query values, bad cursors, odd and huge
 * strings, values of the wrong JSON type, hostile object keys, malformed and oversized bodies, wrong
 * content types. Each is built so that the value is certainly invalid where it is used, which is what
 * lets the suite demand a 4xx for every one of them.
 */
import fc from 'fast-check';

/** Path ids CONTRACT refuses (400): anything but 1-15 plain decimal digits without a leading zero. */
export const malformedPathId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'abc', '0', '-1', '1.5', '012', '1e3', '1E3', '0x1F', '+1', ' 1', '1 ', '', ' ', '1_000', '1,000', '1.0', '.5',
    '9999999999999999', '9007199254740993', '1'.repeat(40), 'NaN', 'Infinity', '-Infinity', 'null', 'undefined', 'true',
    '[1]', '{"id":1}', '../1', '1/2', '1%00', '1\u0000', '%31', '１２', '١٢', '१२', '½', '²', 'Ⅻ', '1\n', '\t1', '00',
    '-0', '0.0', '1e-3', '__proto__', 'constructor', '1 OR 1=1', "1'--", '${1}', '<1>', '🙂',
  ),
  fc.string({ maxLength: 30 }).filter((s) => !(/^[1-9][0-9]{0,15}$/.test(s) && Number.isSafeInteger(Number(s)))),
);

/** Well-formed ids no record has (404 in a path, 400 in a body). */
export const unusedId: fc.Arbitrary<number> = fc.integer({ min: 100_000_000_000, max: 999_999_999_999_999 });

/** Boolean query flags accept exactly `1`, `true`, `0`, `false` (CONTRACT). */
export const badFlagValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('yes', 'no', 'on', 'off', '2', '-1', 'TRUE', 'True', 'FALSE', '1.0', '01', 'true ', ' 1', '', 'null',
    'undefined', '[]', '{}', '1,1', 'tru', 'ja', '✓', '1\u0000', 't', 'f', 'y'),
  fc.string({ maxLength: 20 }).filter((s) => !['1', 'true', '0', 'false'].includes(s)),
);

/** `pageSize` is 1..500 (CONTRACT); leading zeros are not tried (`010` is ten, not an id). */
export const badPageSize: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '501', '1000', '-1', '1.5', '1e2', 'abc', '', ' 5', '5 ', '0x10', '99999999999999999999999',
    'NaN', 'Infinity', '+5', '１０', '5;6', '5,5', '[5]', '00'),
  fc.integer({ min: 501, max: 1_000_000_000 }).map(String),
  fc.integer({ min: -1_000_000, max: 0 }).map(String),
  fc.string({ maxLength: 12 }).filter((s) => !/^[0-9]{1,3}$/.test(s)),
);

/** A value not in `allowed` (query enums such as `sort` and `sentiment`). */
export const notOneOf = (allowed: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...allowed.flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v} `, `${v}x`, v.slice(0, -1)]), '', 'null', '*', '__proto__'),
    fc.string({ maxLength: 24 }),
  ).filter((s) => !allowed.includes(s));

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
export const cursorOf = (value: unknown) => b64url(JSON.stringify(value));

/** Cursors that are not cursors at all: wrong alphabet, not JSON, not an object, too long. */
export const garbageCursor: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'not a cursor!', '====', '%%%', 'a+b/c=', '🙂', ' ', 'x'.repeat(3000), b64url('x'.repeat(2000)),
    b64url('{"PK":'), b64url('null'), b64url('[]'), b64url('"SITE"'), b64url('123'), b64url('{}'), b64url('true'),
    b64url(`${'['.repeat(5000)}${']'.repeat(5000)}`).slice(0, 2048),
    Buffer.from(JSON.stringify({ PK: 'SITE#1', SK: 'IDEA#1' })).toString('base64'), // standard base64 with padding
  ),
  fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !/^[A-Za-z0-9_-]+$/.test(s)),
  fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)).map((v) => cursorOf(v)),
);

/**
 * Cursors are sealed (lib/store/db/cursor.ts), so these readable forgeries fail at opening; the checks of
 * an opened key are unit-tested (tests/unit/foundation/cursor.test.ts). Kept as the attacks they were.
 *
 * Key cursors (lib/store/db/cursor.ts) forged against a Query of the site partition `pk` under `prefix`:
 * another site, another entity, missing or extra key attributes, wrong types, oversized values.
 * Key-attribute names are those of the table (PK, SK, GSI1PK, GSI1SK).
 */
export function forgedKeyCursors(pk: string, otherPk: string, prefix: string, foreignPrefix: string): string[] {
  const sk = `${prefix}0000000001`;
  return [
    { PK: otherPk, SK: sk },
    { PK: pk, SK: `${foreignPrefix}0000000001` },
    { PK: pk },
    { SK: sk },
    { PK: pk, SK: 12 },
    { PK: pk, SK: '' },
    { PK: pk, SK: { S: sk } },
    { PK: pk, SK: [sk] },
    { PK: pk, SK: null },
    { PK: pk, SK: `${prefix}${'9'.repeat(1100)}` },
    { PK: pk, SK: sk, extra: 'x' },
    { PK: pk, SK: sk, GSI1PK: 'SITES' },
    { PK: pk, SK: sk, GSI1PK: 'x', GSI1SK: 'y' },
    { PK: pk, SK: sk, version: 1 },
    JSON.parse(`{"PK": ${JSON.stringify(pk)}, "SK": ${JSON.stringify(sk)}, "__proto__": "x"}`),
    JSON.parse(`{"PK": ${JSON.stringify(pk)}, "SK": ${JSON.stringify(sk)}, "__proto__": {"PK": "x"}}`),
    { pk, sk },
    { PK: `${pk} `, SK: sk },
    { PK: pk.toLowerCase(), SK: sk },
    { PK: pk, SK: sk, 'S K': 'x' },
    { PK: pk, SK: sk, a: 1, b: 2, c: 3, d: 4, e: 5 },
  ].map(cursorOf);
}

/** Cursors of GET /vote (`{s, u, i}`, lib/votes/list-cursor.ts) forged for site `siteId`. */
export function forgedVoteCursors(siteId: number, otherSiteId: number): string[] {
  return [
    { s: otherSiteId, u: 1, i: 0 },
    { s: String(siteId), u: 1, i: 0 },
    { s: siteId, u: -1, i: 0 },
    { s: siteId, u: 1, i: -1 },
    { s: siteId, u: 1.5, i: 0 },
    { s: siteId, u: 10_000_000_000, i: 0 },
    { s: siteId, u: 1e300, i: 0 },
    { s: siteId, u: '1', i: 0 },
    { s: siteId, u: 1 },
    { s: siteId, u: 1, i: 0, x: 1 },
    { s: siteId },
    { PK: `x`, SK: 'y' },
    JSON.parse(`{"s": ${siteId}, "u": 1, "i": 0, "__proto__": 1}`),
  ].map(cursorOf);
}

/** One code point each, chosen to upset naive code: controls, bidi overrides, zero-width, surrogates. */
const oddChar: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\u0000', '\u0001', '\u0007', '\b', '\u001b', '\u007f', '\u0085', '\u00a0', '\u200b', '\u200d', '\u200e', '\u202e',
    '\u2028', '\u2029', '\ufeff', '\ufffd', '\uffff', '🙂', '👩🏽‍💻'.slice(0, 2), '𝕏', 'é', 'e\u0301'.slice(1), 'ß', 'İ', 'ﷺ',
    'Ω', '中', '"', '\\', '<', '>', '&', "'", '`', '$', '{', '}', '%', '#', ':', '.', '/',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((s) => [...s].length === 1 && s.trim() === s),
);

/** Lone UTF-16 surrogates: legal in JSON text, not encodable as UTF-8. */
export const loneSurrogates = ['\ud800', '\udfff', 'a\ud83dz', '\udc00\ud800'];

/** A string of `min`..`max` code points of odd characters (never white space at either end). */
export const oddString = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(oddChar, { minLength: min, maxLength: max }).map((chars) => chars.join('').replace(/^\s+|\s+$/g, 'x'));

/** Objects whose keys are the usual suspects of prototype pollution and mass assignment. */
export const hostileKeys = [
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', '', ' ', 'a.b',
  '[0]', '#f0', ':v0', '$where', 'PK', 'SK', 'GSI1PK', 'GSI1SK', 'version', 'id', 'siteId', 'createdAt', 'voterIds',
  'tokenHash', 'role', 'externalUserId', '🙂', '\u0000',
];

/**
 * JSON text of `base` with extra keys (own `__proto__` included, which a JS object literal cannot
 * carry) and the given value for `field` (absent when `value` is ABSENT).
 */
export const ABSENT = Symbol('absent');
export function objectText(base: Record<string, unknown>, changes: Array<[string, unknown]>): string {
  const entries = new Map<string, unknown>(Object.entries(base));
  for (const [key, value] of changes) {
    if (value === ABSENT) entries.delete(key);
    else entries.set(key, value);
  }
  return `{${[...entries].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

/** A value built from JSON text, so `__proto__` keys are own properties, as in a parsed request. */
export const parsed = (text: string): unknown => JSON.parse(text);

const pollutionObject = parsed('{"__proto__": {"role": "admin", "isAdmin": true}, "constructor": {"prototype": {"polluted": 1}}}');

/** Extra top-level keys to sprinkle into bodies (never enough to make a body valid on their own). */
export const extraKeys: fc.Arbitrary<Array<[string, unknown]>> = fc.array(
  fc.tuple(fc.constantFrom(...hostileKeys), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(pollutionObject))),
  { maxLength: 3 },
);

/** JSON values of each type, for type confusion; callers filter out the types a field accepts. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1.5, -0, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, true, false, null, '', 'x', [], [1], ['x'], {}, { a: 1 }, pollutionObject),
  fc.jsonValue({ maxDepth: 3 }),
);

export const jsonTypeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Body texts that are not JSON (400). */
export const malformedJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{', '}', '{"title":}', "{'title':'x'}", '{"a":1,}', '[1,]', 'NaN', 'undefined', '{"a":1}{"b":2}', '\u0000',
    '\ufeff{}', '{"a":"\u0000', '{"a": 01}', '{"a": .5}', '{"a": +1}', '{"a": 0x10}', '{"a": Infinity}', '{a: 1}',
    '{"a":"x"', '"unterminated', '[', '{"__proto__":', 'True', 'nul', '/* c */ {}', '{"a":1} // c', '\u2028{}',
    '{"a":"\\x41"}', '{"a":"\\u12"}',
  ),
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => {
    if (s.trim() === '') return false;
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);

/** Media types that are not JSON (415). `+json` suffix types are JSON and are not here. */
export const wrongContentType: fc.Arbitrary<string> = fc.constantFrom(
  'text/plain', 'text/html', 'text/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/xml', 'application/jsonp', 'application/json-seq', 'application/javascript', 'json', '*/*', 'application/*',
  'application/octet-stream', 'application/json+xml', 'application / json', 'application/jso', 'applicationjson',
  'application/json\u0000', 'image/png', '🙂/json', '', ' ',
);

/** Nested `depth` levels deep, as text (building the value would already be the attack). */
export function deepJsonText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A JSON body just over 256 KiB in UTF-8 (413), of ASCII or of multi-byte characters. */
export function oversizedBodyText(kind: 'ascii' | 'multibyte' | 'array'): string {
  if (kind === 'ascii') return JSON.stringify({ title: 'x'.repeat(300 * 1024) });
  if (kind === 'multibyte') return JSON.stringify({ title: '€'.repeat(100 * 1024) }); // 3 bytes each: ~300 KB
  return JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ ideaId: i + 1 })));
}

// Reserved keys (CONTRACT "Decided details, security") -----------------------------------------------

/** Object keys refused anywhere in a body. */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** JSON text with the path (errorPath form) of the reserved key inside it, relative to where it sits. */
interface Buried {
  text: string;
  /** Path segments below the value's own place: keys, and numbers for array indexes. */
  segments: Array<string | number>;
}

const fillerJson = fc
  .jsonValue({ maxDepth: 1 })
  .map((v) => JSON.stringify(v))
  .filter((text) => !RESERVED_KEYS.some((k) => text.includes(JSON.stringify(k))));
const plainKey = fc.oneof(fc.constantFrom('a', 'tags', 'address', 'x y', '0', 'toString', 'PK'), fc.string({ minLength: 1, maxLength: 8 }))
  .filter((k) => !(RESERVED_KEYS as readonly string[]).includes(k));

/**
 * A value holding a reserved key 0 to 5 levels down, through objects and arrays (arrays at random
 * positions, with other values beside it), as JSON text: a JS object literal cannot carry an own
 * `__proto__`, text can.
 */
export const buriedReservedKey: fc.Arbitrary<Buried> = fc
  .tuple(
    fc.constantFrom(...RESERVED_KEYS),
    fillerJson,
    fc.array(fc.oneof(plainKey.map((k) => ({ key: k })), fc.tuple(fc.array(fillerJson, { maxLength: 3 }), fillerJson).map(([before, after]) => ({ before, after }))), { maxLength: 5 }),
    fc.array(fc.tuple(plainKey, fillerJson), { maxLength: 2 }),
  )
  .map(([reserved, value, levels, siblings]) => {
    const inner = new Map<string, string>(siblings.map(([k, v]) => [k, v]));
    inner.set(reserved, value);
    let text = `{${[...inner].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
    const segments: Array<string | number> = [reserved];
    for (const level of [...levels].reverse()) {
      if ('key' in level) {
        text = `{${JSON.stringify(level.key)}:${text}}`;
        segments.unshift(level.key);
      } else {
        text = `[${[...level.before, text, level.after].join(',')}]`;
        segments.unshift(level.before.length);
      }
    }
    return { text, segments };
  });

/** JSON bodies of the wrong kind: not an object (nor, for a vote round, an array). */
export const nonContainerBodies: readonly unknown[] = [false, true, 0, -1, 1.5, '', 'x', '{}', null];
