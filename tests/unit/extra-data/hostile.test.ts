import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeExtraData } from '#lib/extra-data/merge';
import { EXTRA_DATA_VALUE_MAX_NESTING, validateExtraData } from '#lib/extra-data/validate';
import type { FieldDefinition } from '#schemas/extra-data-definition';

// Fixed seed: a failure is reproducible, and the run is the same on every machine.
const params = { seed: 20240611, numRuns: 500 };

const defs: Record<string, FieldDefinition> = {
  b: { type: 'boolean' },
  i: { type: 'int', allowNull: false },
  s: { type: 'string' },
  a: { type: 'arrayOfStrings' },
  e: { type: 'enum', values: ['x', 'y'] },
  o: { type: 'object', subset: { s: { type: 'string' }, o: { type: 'object', subset: { i: { type: 'int' } } } } },
};

const key = fc.oneof(fc.constantFrom('b', 'i', 's', 'a', 'e', 'o', '__proto__', 'constructor', 'toString'), fc.string());
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.anything({ maxDepth: 4, withNullPrototype: true, withMap: true, withSet: true, withBigInt: true, withDate: true }),
);
const extraDataLike = fc.oneof(fc.dictionary(key, anyValue, { maxKeys: 8 }), anyValue);

describe('hostile input', () => {
  it('validateExtraData never throws and always returns well-formed details', () => {
    fc.assert(
      fc.property(extraDataLike, fc.boolean(), (value, mustBeDefined) => {
        const details = validateExtraData(value, defs, mustBeDefined);
        expect(Array.isArray(details)).toBe(true);
        for (const d of details) {
          expect(typeof d.path).toBe('string');
          expect(d.path.startsWith('extraData')).toBe(true);
          expect(typeof d.message).toBe('string');
        }
      }),
      params,
    );
  });

  it('validateExtraData survives arbitrary definitions too', () => {
    fc.assert(
      fc.property(extraDataLike, fc.anything({ maxDepth: 5 }), fc.boolean(), (value, definitions, mustBeDefined) => {
        const details = validateExtraData(value, definitions as Record<string, FieldDefinition>, mustBeDefined);
        expect(Array.isArray(details)).toBe(true);
      }),
      params,
    );
  });

  it('parsed JSON with __proto__ keys never pollutes Object.prototype', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (inner) => {
        const raw = `{"__proto__": ${JSON.stringify({ polluted: inner })}, "o": {"__proto__": {"polluted": 1}}}`;
        const value = JSON.parse(raw) as Record<string, unknown>;
        validateExtraData(value, defs, false);
        mergeExtraData(value, value);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      params,
    );
  });

  it('a value nested thousands of levels deep is no problem', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = { o: deep, s: [deep] };
    // Parts with a definition are walked only as deep as the definitions go; the rest only until it
    // is deeper than the table could store (EXTRA_DATA_VALUE_MAX_NESTING), without recursion.
    expect(validateExtraData({ o: deep, free: deep }, defs, false)).toEqual([
      { path: 'extraData.o.o.o', message: 'is not a field of this object' },
      { path: 'extraData.o.o.s', message: 'is not a field of this object' },
      { path: 'extraData.o.s', message: 'must be a string' },
      { path: `extraData.free${'.o'.repeat(EXTRA_DATA_VALUE_MAX_NESTING)}`, message: `is nested more than ${EXTRA_DATA_VALUE_MAX_NESTING} levels deep` },
    ]);
  });

  it('__proto__ as a field name is refused, even when definitions are not enforced', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "s": "ok"}') as unknown;
    expect(validateExtraData(value, defs, false)).toEqual([
      { path: 'extraData.__proto__', message: 'is not an allowed field name' },
    ]);
  });

  it('null-prototype objects count as plain; a throwing getter is an internal error (a 500, logged), not a 400', () => {
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { s: 'ok' });
    expect(validateExtraData(nullProto, defs, true)).toEqual([]);
    const throwing = {
      get s(): string {
        throw new Error('boom');
      },
    };
    expect(() => validateExtraData(throwing, defs, true)).toThrow('boom');
  });
});
