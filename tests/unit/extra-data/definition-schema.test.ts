import { describe, expect, it } from 'vitest';
import {
  EXTRA_DATA_MAX_DEPTH,
  extraDataDefinitionsSchema,
  fieldDefinitionSchema,
} from '#schemas/extra-data-definition';

/** Nested `object` definitions, `levels` deep in total. */
function nestedDefinitions(levels: number): unknown {
  let def: unknown = { type: 'string' };
  for (let i = 1; i < levels; i++) def = { type: 'object', subset: { inner: def } };
  return { field: def };
}

describe('fieldDefinitionSchema', () => {
  it.each(['boolean', 'int', 'string', 'arrayOfStrings'])('accepts a plain %s definition', (type) => {
    expect(fieldDefinitionSchema.parse({ type })).toEqual({ type });
  });

  it('keeps unknown keys (labels, sitespecific options)', () => {
    const def = { type: 'string', allowNull: false, label: 'Bio', 'site-specific': true, sitespecific: false };
    expect(fieldDefinitionSchema.parse(def)).toEqual(def);
  });

  it('refuses an unknown type and a non-boolean allowNull', () => {
    const a = fieldDefinitionSchema.safeParse({ type: 'date' });
    expect(a.success).toBe(false);
    expect(a.error?.issues.map((i) => i.path)).toEqual([['type']]);
    const b = fieldDefinitionSchema.safeParse({ type: 'int', allowNull: 'no' });
    expect(b.error?.issues.map((i) => i.path)).toEqual([['allowNull']]);
  });

  it('requires values for enum, as strings', () => {
    expect(fieldDefinitionSchema.parse({ type: 'enum', values: ['a', 'b'] })).toEqual({ type: 'enum', values: ['a', 'b'] });
    const missing = fieldDefinitionSchema.safeParse({ type: 'enum' });
    expect(missing.error?.issues.map((i) => [i.path, i.message])).toEqual([[['values'], 'values is required for type enum']]);
    expect(fieldDefinitionSchema.safeParse({ type: 'enum', values: [1] }).success).toBe(false);
  });

  it('requires subset for object and checks it recursively', () => {
    const def = { type: 'object', subset: { street: { type: 'string' }, geo: { type: 'object', subset: { lat: { type: 'int' } } } } };
    expect(fieldDefinitionSchema.parse(def)).toEqual(def);
    const missing = fieldDefinitionSchema.safeParse({ type: 'object' });
    expect(missing.error?.issues.map((i) => [i.path, i.message])).toEqual([[['subset'], 'subset is required for type object']]);
    const deepEnum = fieldDefinitionSchema.safeParse({ type: 'object', subset: { a: { type: 'object', subset: { b: { type: 'enum' } } } } });
    expect(deepEnum.error?.issues.map((i) => i.path)).toEqual([['subset', 'a', 'subset', 'b', 'values']]);
  });
});

describe('extraDataDefinitionsSchema', () => {
  it('parses a map of definitions', () => {
    const defs = { theme: { type: 'enum', values: ['noord', 'zuid'] }, tags: { type: 'arrayOfStrings' } };
    expect(extraDataDefinitionsSchema.parse(defs)).toEqual(defs);
    expect(extraDataDefinitionsSchema.parse({})).toEqual({});
  });

  it('reports the path of a bad entry', () => {
    const result = extraDataDefinitionsSchema.safeParse({ ok: { type: 'int' }, bad: { type: 'float' } });
    expect(result.error?.issues.map((i) => i.path)).toEqual([['bad', 'type']]);
  });

  it('refuses non-objects', () => {
    for (const value of [null, [], 'x', 3]) expect(extraDataDefinitionsSchema.safeParse(value).success).toBe(false);
  });

  it(`accepts ${EXTRA_DATA_MAX_DEPTH} levels of nesting and refuses one more`, () => {
    expect(extraDataDefinitionsSchema.safeParse(nestedDefinitions(EXTRA_DATA_MAX_DEPTH)).success).toBe(true);
    const tooDeep = extraDataDefinitionsSchema.safeParse(nestedDefinitions(EXTRA_DATA_MAX_DEPTH + 1));
    expect(tooDeep.error?.issues.map((i) => i.message)).toEqual([
      `extraData definitions may nest at most ${EXTRA_DATA_MAX_DEPTH} levels deep`,
    ]);
  });

  it('refuses a hostile, thousands-deep config without overflowing the stack', () => {
    expect(extraDataDefinitionsSchema.safeParse(nestedDefinitions(20_000)).success).toBe(false);
  });

  it('does not let a __proto__ key reach a prototype', () => {
    const parsed = extraDataDefinitionsSchema.parse(JSON.parse('{"__proto__": {"type": "int"}, "a": {"type": "int"}}'));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(Object.keys(parsed)).toEqual(['a']);
  });
});
