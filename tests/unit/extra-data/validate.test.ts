import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/errors';
import { assertValidExtraData, EXTRA_DATA_VALUE_MAX_NESTING, MAX_ERROR_DETAILS, validateExtraData } from '#lib/extra-data/validate';
import { NUMBER_RANGE_MESSAGE } from '#lib/store/db/storable';
import { EXTRA_DATA_MAX_DEPTH, type FieldDefinition } from '#schemas/extra-data-definition';

const defs: Record<string, FieldDefinition> = {
  done: { type: 'boolean' },
  count: { type: 'int' },
  title: { type: 'string' },
  tags: { type: 'arrayOfStrings' },
  theme: { type: 'enum', values: ['noord', 'zuid'] },
  strict: { type: 'string', allowNull: false },
  address: {
    type: 'object',
    subset: {
      street: { type: 'string' },
      number: { type: 'int', allowNull: false },
      geo: { type: 'object', subset: { lat: { type: 'int' }, lng: { type: 'int' } } },
    },
  },
};

const check = (value: unknown, mustBeDefined = true) => validateExtraData(value, defs, mustBeDefined);

describe('validateExtraData: shape of the whole value', () => {
  it('accepts a valid object with every type', () => {
    expect(
      check({
        done: true,
        count: -3,
        title: '',
        tags: ['a', 'b'],
        theme: 'zuid',
        strict: 'x',
        address: { street: 'Dam', number: 1, geo: { lat: 52, lng: 4 } },
      }),
    ).toEqual([]);
    expect(check({})).toEqual([]);
  });

  it('treats undefined as "not sent"', () => {
    expect(validateExtraData(undefined, defs, true)).toEqual([]);
  });

  it.each([[null], [[]], [[1, 2]], ['x'], [3], [true], [new Date(0)]])('refuses %j as a whole with one error', (value) => {
    expect(check(value, false)).toEqual([{ path: 'extraData', message: 'must be an object' }]);
  });

  it('uses the base path it is given', () => {
    expect(validateExtraData({ count: 'x' }, defs, false, 'body.extraData')).toEqual([
      { path: 'body.extraData.count', message: 'must be an integer' },
    ]);
    expect(validateExtraData(5, defs, false, 'x')).toEqual([{ path: 'x', message: 'must be an object' }]);
  });
});

describe('validateExtraData: types', () => {
  it('boolean', () => {
    expect(check({ done: false })).toEqual([]);
    expect(check({ done: 'true' })).toEqual([{ path: 'extraData.done', message: 'must be a boolean' }]);
    expect(check({ done: 1 })).toEqual([{ path: 'extraData.done', message: 'must be a boolean' }]);
  });

  it('int: safe integers only', () => {
    expect(check({ count: 0 })).toEqual([]);
    expect(check({ count: Number.MAX_SAFE_INTEGER })).toEqual([]);
    for (const bad of [1.5, '3', Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity, true, [1]]) {
      expect(check({ count: bad })).toEqual([{ path: 'extraData.count', message: 'must be an integer' }]);
    }
  });

  it('string', () => {
    expect(check({ title: 'hi' })).toEqual([]);
    expect(check({ title: 3 })).toEqual([{ path: 'extraData.title', message: 'must be a string' }]);
    expect(check({ title: ['hi'] })).toEqual([{ path: 'extraData.title', message: 'must be a string' }]);
  });

  it('arrayOfStrings: an error per bad entry', () => {
    expect(check({ tags: [] })).toEqual([]);
    expect(check({ tags: 'a' })).toEqual([{ path: 'extraData.tags', message: 'must be an array of strings' }]);
    expect(check({ tags: { 0: 'a' } })).toEqual([{ path: 'extraData.tags', message: 'must be an array of strings' }]);
    expect(check({ tags: ['a', 'b', 3, null, 'c', ['d']] })).toEqual([
      { path: 'extraData.tags[2]', message: 'must be a string' },
      { path: 'extraData.tags[3]', message: 'must be a string' },
      { path: 'extraData.tags[5]', message: 'must be a string' },
    ]);
  });

  it('enum: one of values', () => {
    expect(check({ theme: 'noord' })).toEqual([]);
    expect(check({ theme: 'oost' })).toEqual([{ path: 'extraData.theme', message: 'must be one of: noord, zuid' }]);
    expect(check({ theme: 'Noord' })).toEqual([{ path: 'extraData.theme', message: 'must be one of: noord, zuid' }]);
    expect(check({ theme: ['noord'] })).toEqual([{ path: 'extraData.theme', message: 'must be one of: noord, zuid' }]);
  });

  it('object: checked recursively against subset', () => {
    expect(check({ address: {} })).toEqual([]);
    expect(check({ address: { street: 'Dam' } })).toEqual([]);
    expect(check({ address: 'Dam 1' })).toEqual([{ path: 'extraData.address', message: 'must be an object' }]);
    expect(check({ address: ['Dam'] })).toEqual([{ path: 'extraData.address', message: 'must be an object' }]);
    expect(check({ address: { street: 1, number: 'one', geo: { lat: 'n', lng: 4 } } })).toEqual([
      { path: 'extraData.address.street', message: 'must be a string' },
      { path: 'extraData.address.number', message: 'must be an integer' },
      { path: 'extraData.address.geo.lat', message: 'must be an integer' },
    ]);
  });

  it('object: an unknown nested key is an error whatever mustBeDefined says', () => {
    const expected = [
      { path: 'extraData.address.city', message: 'is not a field of this object' },
      { path: 'extraData.address.geo.alt', message: 'is not a field of this object' },
    ];
    expect(check({ address: { city: 'A', geo: { alt: 3 } } }, true)).toEqual(expected);
    expect(check({ address: { city: 'A', geo: { alt: 3 } } }, false)).toEqual(expected);
  });

  it('collects every failing path in one pass', () => {
    expect(check({ done: 1, theme: 'x', extra: 1, tags: [1] })).toEqual([
      { path: 'extraData.done', message: 'must be a boolean' },
      { path: 'extraData.theme', message: 'must be one of: noord, zuid' },
      { path: 'extraData.extra', message: 'is not defined in the site configuration' },
      { path: 'extraData.tags[0]', message: 'must be a string' },
    ]);
  });
});

describe('validateExtraData: keys without a definition', () => {
  it('pass unchecked when mustBeDefined is false', () => {
    expect(check({ anything: { deep: [1, { x: null }] }, other: 3 }, false)).toEqual([]);
    expect(validateExtraData({ a: 1 }, undefined, false)).toEqual([]);
  });

  it('are errors when mustBeDefined is true', () => {
    expect(check({ anything: 1, title: 'ok' }, true)).toEqual([
      { path: 'extraData.anything', message: 'is not defined in the site configuration' },
    ]);
    expect(validateExtraData({ a: 1 }, undefined, true)).toEqual([
      { path: 'extraData.a', message: 'is not defined in the site configuration' },
    ]);
  });

  it('keys with a definition are checked even when mustBeDefined is false', () => {
    expect(check({ count: 'x', theme: 'oost' }, false)).toEqual([
      { path: 'extraData.count', message: 'must be an integer' },
      { path: 'extraData.theme', message: 'must be one of: noord, zuid' },
    ]);
  });

  it('names inherited from Object.prototype are not definitions', () => {
    expect(check({ constructor: 1, toString: 'x', hasOwnProperty: true }, true)).toEqual([
      { path: 'extraData.constructor', message: 'is not defined in the site configuration' },
      { path: 'extraData.toString', message: 'is not defined in the site configuration' },
      { path: 'extraData.hasOwnProperty', message: 'is not defined in the site configuration' },
    ]);
    expect(check({ constructor: 1 }, false)).toEqual([]);
    expect(check({ address: { constructor: 'x' } })).toEqual([
      { path: 'extraData.address.constructor', message: 'is not a field of this object' },
    ]);
  });
});

// Regression (hostile suite): unchecked values went to DynamoDB as they came, and numbers beyond
// +-(2^53 - 1) or below 1e-130 in size, empty keys and nesting past 32 levels made the write fail (500).
describe('validateExtraData: keys without a definition must still be storable', () => {
  it('refuses numbers the table cannot hold, empty keys and deep nesting, one detail per field', () => {
    let deep: unknown = 1;
    for (let i = 0; i < EXTRA_DATA_VALUE_MAX_NESTING; i++) deep = { a: deep };
    expect(check({ big: 1e200, tiny: 1e-200, list: [1, -(2 ** 60)], fine: { n: 1.5, m: -9007199254740991, z: 0 } }, false)).toEqual([
      { path: 'extraData.big', message: NUMBER_RANGE_MESSAGE },
      { path: 'extraData.tiny', message: NUMBER_RANGE_MESSAGE },
      { path: 'extraData.list[1]', message: NUMBER_RANGE_MESSAGE },
    ]);
    expect(check({ '': 1 }, false)).toEqual([{ path: 'extraData', message: 'has an empty key, which cannot be stored' }]);
    expect(check({ x: { y: { '': 1 } } }, false)).toEqual([{ path: 'extraData.x.y', message: 'has an empty key, which cannot be stored' }]);
    expect(check({ deep }, false)).toEqual([]);
    expect(check({ deeper: { b: deep } }, false)).toEqual([
      { path: `extraData.deeper.b${'.a'.repeat(EXTRA_DATA_VALUE_MAX_NESTING - 1)}`, message: `is nested more than ${EXTRA_DATA_VALUE_MAX_NESTING} levels deep` },
    ]);
  });
});

describe('validateExtraData: null', () => {
  it('removes a key and is accepted for defined fields without allowNull: false', () => {
    expect(check({ done: null, count: null, tags: null, theme: null, address: null }, true)).toEqual([]);
  });

  it('is accepted for undefined keys even when mustBeDefined (removing legacy data)', () => {
    expect(check({ legacy: null }, true)).toEqual([]);
  });

  it('is refused for allowNull: false only when mustBeDefined', () => {
    expect(check({ strict: null }, true)).toEqual([{ path: 'extraData.strict', message: 'may not be null' }]);
    expect(check({ strict: null }, false)).toEqual([]);
  });

  it('allowNull: true is no different from absent', () => {
    expect(validateExtraData({ a: null }, { a: { type: 'int', allowNull: true } }, true)).toEqual([]);
  });

  it('nested nulls follow the subset allowNull, whatever mustBeDefined says', () => {
    expect(check({ address: { street: null, geo: null } }, true)).toEqual([]);
    expect(check({ address: { number: null } }, true)).toEqual([
      { path: 'extraData.address.number', message: 'may not be null' },
    ]);
    expect(check({ address: { number: null } }, false)).toEqual([
      { path: 'extraData.address.number', message: 'may not be null' },
    ]);
  });

  it('a nested null for an unknown key is still an unknown key', () => {
    expect(check({ address: { city: null } })).toEqual([
      { path: 'extraData.address.city', message: 'is not a field of this object' },
    ]);
  });
});

describe('validateExtraData: broken definitions fail closed', () => {
  const broken = {
    noType: {},
    badType: { type: 'date' },
    enumNoValues: { type: 'enum' },
    objectNoSubset: { type: 'object' },
    notAnObject: 'string',
  } as unknown as Record<string, FieldDefinition>;

  it('reports every such field and never throws', () => {
    const message = 'has an invalid definition in the site configuration';
    expect(
      validateExtraData({ noType: 1, badType: 1, enumNoValues: 'a', objectNoSubset: {}, notAnObject: 'x' }, broken, false),
    ).toEqual([
      { path: 'extraData.noType', message },
      { path: 'extraData.badType', message },
      { path: 'extraData.enumNoValues', message },
      { path: 'extraData.objectNoSubset', message },
      { path: 'extraData.notAnObject', message },
    ]);
  });

  it('treats definitions that are not an object as none', () => {
    const odd = [1, 2] as unknown as Record<string, FieldDefinition>;
    expect(validateExtraData({ 0: 'x' }, odd, true)).toEqual([
      { path: 'extraData.0', message: 'is not defined in the site configuration' },
    ]);
  });
});

describe('validateExtraData: limits', () => {
  function nested(levels: number): { defs: Record<string, FieldDefinition>; value: unknown; path: string } {
    let def: FieldDefinition = { type: 'int' };
    let value: unknown = 'not an int';
    let path = '';
    for (let i = 1; i < levels; i++) {
      def = { type: 'object', subset: { n: def } };
      value = { n: value };
      path += '.n';
    }
    return { defs: { f: def }, value: { f: value }, path: `extraData.f${path}` };
  }

  it(`checks ${EXTRA_DATA_MAX_DEPTH} levels and stops below that`, () => {
    const ok = nested(EXTRA_DATA_MAX_DEPTH);
    expect(validateExtraData(ok.value, ok.defs, true)).toEqual([{ path: ok.path, message: 'must be an integer' }]);
    const deep = nested(EXTRA_DATA_MAX_DEPTH + 1);
    expect(validateExtraData(deep.value, deep.defs, true)).toEqual([{ path: deep.path, message: 'is nested too deeply' }]);
  });

  it('survives a cyclic definition (built in code, not JSON)', () => {
    const cyclic = { type: 'object', subset: {} } as FieldDefinition & { subset: Record<string, FieldDefinition> };
    cyclic.subset.self = cyclic;
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) value = { self: value };
    const errors = validateExtraData({ c: value }, { c: cyclic }, true);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toBe('is nested too deeply');
    expect(errors[0]?.path).toBe(`extraData.c${'.self'.repeat(EXTRA_DATA_MAX_DEPTH)}`);
  });

  it(`caps details at ${MAX_ERROR_DETAILS} plus one note`, () => {
    const errors = check({ tags: Array.from({ length: 100_000 }, () => 1) });
    expect(errors).toHaveLength(MAX_ERROR_DETAILS + 1);
    expect(errors[0]).toEqual({ path: 'extraData.tags[0]', message: 'must be a string' });
    expect(errors[MAX_ERROR_DETAILS - 1]).toEqual({ path: `extraData.tags[${MAX_ERROR_DETAILS - 1}]`, message: 'must be a string' });
    expect(errors[MAX_ERROR_DETAILS]).toEqual({
      path: 'extraData',
      message: `too many errors; only the first ${MAX_ERROR_DETAILS} are shown`,
    });
  });

  it(`exactly ${MAX_ERROR_DETAILS} errors carry no note`, () => {
    const errors = check({ tags: Array.from({ length: MAX_ERROR_DETAILS }, () => 1) });
    expect(errors).toHaveLength(MAX_ERROR_DETAILS);
    expect(errors.at(-1)).toEqual({ path: `extraData.tags[${MAX_ERROR_DETAILS - 1}]`, message: 'must be a string' });
  });
});

describe('assertValidExtraData', () => {
  it('returns quietly for valid data', () => {
    expect(assertValidExtraData({ theme: 'noord' }, defs, true)).toBeUndefined();
  });

  it('throws a 400 ValidationError carrying the details', () => {
    let thrown: unknown;
    try {
      assertValidExtraData({ theme: 'oost', strict: null }, defs, true);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const err = thrown as ApiError;
    expect(err.status).toBe(400);
    expect(err.error).toBe('ValidationError');
    expect(err.details).toEqual([
      { path: 'extraData.theme', message: 'must be one of: noord, zuid' },
      { path: 'extraData.strict', message: 'may not be null' },
    ]);
  });
});
