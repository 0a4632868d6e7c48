/** The keyed permutation behind ids that reveal nothing: a bijection, invertible with the key only. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { permute, PERMUTATION_SIZE, unpermute } from '#lib/crypto/keyed-permutation';

const key = Buffer.alloc(32, 3);
const value = fc.integer({ min: 0, max: PERMUTATION_SIZE - 1 });

describe('keyed permutation', () => {
  it('is inverted by unpermute, stays in [0, 2^52), and maps distinct values to distinct values', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const pa = permute(key, a);
        expect(unpermute(key, pa)).toBe(a);
        expect(pa).toBeGreaterThanOrEqual(0);
        expect(pa).toBeLessThan(PERMUTATION_SIZE);
        if (a !== b) expect(permute(key, b)).not.toBe(pa);
      }),
      { seed: 52, numRuns: 300 },
    );
  });

  it('consecutive inputs (a user\'s 1st, 2nd, 3rd vote; users 1, 2, 3) give unrelated, unordered outputs; another key another permutation', () => {
    const outs = Array.from({ length: 1000 }, (_, i) => permute(key, 1_000_000 + i));
    expect(new Set(outs).size).toBe(1000);
    const ascending = outs.filter((v, i) => i > 0 && v > outs[i - 1]!).length;
    expect(ascending).toBeGreaterThan(400);
    expect(ascending).toBeLessThan(600);
    const other = Buffer.alloc(32, 4);
    expect(outs.filter((v, i) => permute(other, 1_000_000 + i) === v)).toEqual([]);
  });

  it('refuses values outside its domain', () => {
    for (const bad of [-1, PERMUTATION_SIZE, 1.5, Number.NaN]) expect(() => permute(key, bad)).toThrow(RangeError);
  });
});
