import { describe, expect, it } from 'vitest';
import { mergeExtraData } from '#lib/extra-data/merge';

describe('mergeExtraData', () => {
  it('on create stores the patch without its nulls', () => {
    expect(mergeExtraData(undefined, { theme: 'noord', gone: null, tags: ['a'] })).toEqual({ theme: 'noord', tags: ['a'] });
    expect(mergeExtraData(undefined, undefined)).toEqual({});
  });

  it('merges key by key: sent keys replace, absent keys stay', () => {
    expect(mergeExtraData({ a: 1, b: 2 }, { b: 3, c: 4 })).toEqual({ a: 1, b: 3, c: 4 });
  });

  it('a null removes the key; a null for a missing key is a no-op', () => {
    expect(mergeExtraData({ a: 1, b: 2 }, { a: null, z: null })).toEqual({ b: 2 });
  });

  it('undefined in the patch means absent', () => {
    expect(mergeExtraData({ a: 1 }, { a: undefined })).toEqual({ a: 1 });
  });

  it('no patch keeps everything', () => {
    expect(mergeExtraData({ a: 1, b: [2] }, undefined)).toEqual({ a: 1, b: [2] });
  });

  it('is top level only: a nested object or array replaces the old one whole', () => {
    expect(
      mergeExtraData(
        { address: { street: 'Dam', number: 1 }, images: ['a.jpg', 'b.jpg'] },
        { address: { street: 'Rokin' }, images: ['c.jpg'] },
      ),
    ).toEqual({ address: { street: 'Rokin' }, images: ['c.jpg'] });
  });

  it('keeps a nested null as sent (only top-level null means remove)', () => {
    expect(mergeExtraData({}, { address: { street: null } })).toEqual({ address: { street: null } });
  });

  it('returns a new object and changes neither input', () => {
    const existing = { a: 1, b: 2 };
    const patch = { b: null, c: 3 };
    const merged = mergeExtraData(existing, patch);
    expect(merged).not.toBe(existing);
    expect(existing).toEqual({ a: 1, b: 2 });
    expect(patch).toEqual({ b: null, c: 3 });
  });

  it('never stores __proto__ and never touches a prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const existing = JSON.parse('{"__proto__": {"old": true}, "b": 2}') as Record<string, unknown>;
    const merged = mergeExtraData(existing, patch);
    expect(Object.keys(merged)).toEqual(['b', 'a']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores inputs that are not plain objects', () => {
    expect(mergeExtraData([1, 2] as unknown as Record<string, unknown>, 'x' as unknown as Record<string, unknown>)).toEqual({});
  });
});
