/**
 * JSON Merge Patch (lib/sites/merge-patch.ts) against the test cases of RFC 7396 Appendix A, and what
 * it must not do: change its inputs, or reach a prototype.
 */
import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '#lib/sites/merge-patch';

describe('applyMergePatch: RFC 7396 Appendix A', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result);
  });

  it('changes neither input', () => {
    const target = { votes: { isActive: true, voteType: 'likes' }, allowedDomains: ['a.example'] };
    const patch = { votes: { isActive: null }, allowedDomains: ['b.example'] };
    const copies = [structuredClone(target), structuredClone(patch)];
    expect(applyMergePatch(target, patch)).toEqual({ votes: { voteType: 'likes' }, allowedDomains: ['b.example'] });
    expect([target, patch]).toEqual(copies);
  });

  it('an own __proto__ key in a patch is an ordinary key, never the prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const out = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
