/**
 * Body fields by kind, and for each kind an arbitrary of values that are certainly invalid for it
 * (wrong JSON type, out of range, too long, malformed, pointing nowhere). Corrupting one field of a
 * valid baseline body with such a value gives a request that must be refused.
 */
import fc from 'fast-check';
import { anyJson, jsonTypeOf, loneSurrogates, oddString, parsed, unusedId } from '#tests/support/hostile/arbitraries';

export type FieldKind =
  /** A string of `min`..`max` code points; `trims`: white space at the ends does not count. */
  | { kind: 'text'; min: number; max: number; trims?: boolean; nullable?: boolean }
  | { kind: 'enum'; values: readonly string[]; nullable?: boolean }
  /** An id in a body: a positive JSON integer naming a record of this site; `foreign` name records elsewhere. */
  | { kind: 'id'; nullable?: boolean; foreign: readonly number[] }
  | { kind: 'int'; min: number; nullable?: boolean }
  | { kind: 'bool'; nullable?: boolean }
  | { kind: 'email' }
  | { kind: 'hostname'; nullable?: boolean }
  /** extraData: must be an object; `invalid` are objects the site's definitions refuse. */
  | { kind: 'object'; invalid: readonly unknown[] }
  /** Any value other than the one real secret (a confirm token) is refused, by shape (400) or as unknown (404). */
  | { kind: 'secret'; max: number }
  /** A whole value with its own list of invalid variants (site config). */
  | { kind: 'custom'; invalid: fc.Arbitrary<unknown> };

const wrongType = (accepts: readonly string[]) => anyJson.filter((v) => !accepts.includes(jsonTypeOf(v)));

const withNull = (nullable: boolean | undefined, types: string[]) => (nullable ? [...types, 'null'] : types);

/** Strings the schema refuses for length: too short, too long (odd characters), huge. */
function badText(min: number, max: number, trims: boolean): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [
    oddString(max + 1, max + 40),
    fc.constantFrom('x'.repeat(max + 1), '🙂'.repeat(max + 1), 'x'.repeat(Math.max(max + 1, 100_000))),
  ];
  if (min > 0) options.push(oddString(0, min - 1));
  if (min > 0 && trims) options.push(fc.constantFrom(' '.repeat(min + 5), '\n\t'.repeat(min), '\u00a0'.repeat(min + 1)));
  return fc.oneof(...options);
}

export function invalidValue(field: FieldKind): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case 'text':
      return fc.oneof(wrongType(withNull(field.nullable, ['string'])), badText(field.min, field.max, field.trims ?? false));
    case 'enum':
      return fc.oneof(
        wrongType(withNull(field.nullable, ['string'])),
        fc
          .oneof(
            fc.constantFrom(...field.values.flatMap((v) => [v.toLowerCase(), v.toUpperCase(), ` ${v}`, `${v}\u0000`]), '', '*', ...loneSurrogates),
            oddString(0, 20),
          )
          .filter((s) => !field.values.includes(s)),
      );
    case 'id':
      return fc.oneof(
        wrongType(withNull(field.nullable, ['number'])),
        fc.constantFrom(0, -1, -0, 1.5, 1e-7, 2 ** 53, 2 ** 53 + 2, 1e20, 1e300, -1e300, '1', '12', 'abc', '1e3', '012', ''),
        unusedId,
        ...(field.foreign.length > 0 ? [fc.constantFrom(...field.foreign)] : []),
      );
    case 'int':
      return fc.oneof(
        wrongType(withNull(field.nullable, ['number'])),
        fc.constantFrom(field.min - 1, field.min - 0.5, 1.5, 2 ** 53, 1e300, -1e300, '100', '1e3'),
      );
    case 'bool':
      return fc.oneof(wrongType(withNull(field.nullable, ['boolean'])), fc.constantFrom('true', 'false', 1, 0, 'yes'));
    case 'email':
      return fc.oneof(
        wrongType(['string']),
        fc.constantFrom(
          '', 'no-at-sign', '@example.org', 'ann@', 'ann@@example.org', 'a b@example.org', 'ann@exa mple.org',
          'ann@example..org', '.ann@example.org', 'ann.@example.org', 'ann@-example.org', `${'a'.repeat(250)}@example.org`,
          `ann@${'a'.repeat(300)}.org`, 'ann@example.org\u0000', 'ann@example.org\nBcc: eve@example.org',
          '"ann"@example.org', 'ann@[127.0.0.1]', 'ann@localhost', '<ann@example.org>', 'ann@example.org,eve@example.org',
          ...loneSurrogates.map((s) => `ann${s}@example.org`),
        ),
      );
    case 'hostname':
      return fc.oneof(
        wrongType(withNull(field.nullable, ['string'])),
        fc.constantFrom('not a host', 'http://example.org', 'example..org', '-example.org', 'example-.org', 'a/b', 'exämple.org',
          `${'a'.repeat(64)}.org`, `${'a.'.repeat(130)}org`, 'example.org:99999999', '', ' ', 'example.org/', '*.example.org', '🙂.org'),
      );
    case 'object':
      return fc.oneof(wrongType(['object']), fc.constantFrom(...field.invalid));
    case 'secret':
      return fc.oneof(
        wrongType(['string']),
        fc.constantFrom('', 'x'.repeat(field.max + 1), ...loneSurrogates),
        oddString(1, 60),
      );
    case 'custom':
      return field.invalid;
  }
}

/** extraData objects the engine refuses whatever the definitions: a forbidden key, {value, siteId} entries. */
export const forbiddenExtraData: unknown[] = [parsed('{"__proto__": {"polluted": true}}')];

/** `depth` objects nested in each other. */
export function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** extraData objects DynamoDB could not store as they are (lib/store/db/storable.ts): a 400, never a 500. */
export const unstorableExtraData: unknown[] = [
  { free: 1e200 },
  { free: -(2 ** 60) },
  { free: [1, 1e-200] },
  { free: { '': 1 } },
  parsed('{"": "empty key"}'),
  { free: nested(40) },
  { free: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]] },
];
