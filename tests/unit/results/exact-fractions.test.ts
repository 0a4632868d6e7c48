/**
 * The exact fractions Equal Shares decides with: always reduced with a positive denominator (so equal
 * values compare and print alike), exact arithmetic, the "n/d" text the results carry and read back, and
 * a float close to the fraction even when numerator and denominator are beyond the float range.
 */
import { describe, expect, it } from 'vitest';
import { add, compare, floatOf, format, over, parse, rational, sub, times, toFloat, TO_FLOAT_ERROR, ZERO } from '#lib/results/rational';

const r = (n: number, d = 1) => rational(BigInt(n), BigInt(d));

describe('a fraction', () => {
  it('is kept reduced, with the sign on the numerator', () => {
    expect(r(6, 4)).toEqual({ n: 3n, d: 2n });
    expect(r(3, -6)).toEqual({ n: -1n, d: 2n });
    expect(r(-3, -6)).toEqual({ n: 1n, d: 2n });
    expect(r(-4, 6)).toEqual({ n: -2n, d: 3n });
    expect(r(0, -5)).toEqual({ n: 0n, d: 1n });
    expect(r(7)).toEqual({ n: 7n, d: 1n });
    // The common divisor is taken positive, whichever sign each part has.
    expect(r(4, -6)).toEqual({ n: -2n, d: 3n });
    expect(r(-4, -6)).toEqual({ n: 2n, d: 3n });
    expect(r(-6, 4)).toEqual({ n: -3n, d: 2n });
  });

  it('refuses a zero denominator', () => {
    expect(() => r(1, 0)).toThrow(RangeError);
    expect(() => r(1, 0)).toThrow('Division by zero');
  });

  it('adds and subtracts exactly, with equal or different denominators', () => {
    expect(add(r(1, 3), r(1, 3))).toEqual(r(2, 3));
    expect(add(r(1, 4), r(1, 4))).toEqual({ n: 1n, d: 2n });
    expect(sub(r(3, 4), r(1, 4))).toEqual({ n: 1n, d: 2n });
    expect(add(r(1, 3), r(1, 6))).toEqual(r(1, 2));
    expect(add(r(1, 2), r(-1, 2))).toEqual(ZERO);
    expect(sub(r(2, 3), r(1, 3))).toEqual(r(1, 3));
    expect(sub(r(1, 2), r(1, 3))).toEqual(r(1, 6));
    expect(sub(r(1, 3), r(1, 2))).toEqual(r(-1, 6));
  });

  it('multiplies and divides by whole numbers exactly', () => {
    expect(times(r(2, 9), 3n)).toEqual(r(2, 3));
    expect(over(r(2, 3), 4n)).toEqual(r(1, 6));
  });

  it('compares by value, not by representation', () => {
    expect(compare(r(1, 3), r(1, 2))).toBe(-1);
    expect(compare(r(1, 2), r(1, 3))).toBe(1);
    expect(compare(r(2, 4), r(1, 2))).toBe(0);
    expect(compare(r(-1, 2), r(1, 3))).toBe(-1);
    expect(compare(r(5, 3), r(3, 2))).toBe(1);
  });

  it('prints as "n/d", or "n" when whole, and reads back what it prints', () => {
    expect(format(r(596, 9))).toBe('596/9');
    expect(format(r(-7, 3))).toBe('-7/3');
    expect(format(r(8, 2))).toBe('4');
    for (const f of [r(596, 9), r(-7, 3), r(4), ZERO]) expect(parse(format(f))).toEqual(f);
    expect(parse('10/4')).toEqual(r(5, 2));
  });

  it('refuses text that is not a fraction', () => {
    for (const text of ['', '1/', '/2', '1.5', '1/2/3', '1/-2', ' 1/2', '1/2 ', 'x1/2', '1/2x']) expect(() => parse(text), text).toThrow(RangeError);
    expect(() => parse('1.5')).toThrow('Not a fraction: 1.5');
  });

  it('converts to a close float, also beyond the float range', () => {
    expect(floatOf(r(1, 4))).toBe(0.25);
    expect(floatOf(r(-3, 2))).toBe(-1.5);
    const big = 10n ** 400n;
    const third = toFloat(big, 3n * big);
    expect(Math.abs(third - 1 / 3)).toBeLessThanOrEqual((1 / 3) * TO_FLOAT_ERROR);
    const huge = toFloat(7n * big, 2n * big);
    expect(Math.abs(huge - 3.5)).toBeLessThanOrEqual(3.5 * TO_FLOAT_ERROR);
    expect(toFloat(big, 1n)).toBe(Infinity);
    // Only the denominator beyond the float range, and far larger than the numerator.
    const small = toFloat(10n ** 300n, big);
    expect(Math.abs(small - 1e-100)).toBeLessThanOrEqual(1e-100 * TO_FLOAT_ERROR * 2);
  });

  it('bounds the relative error of that float by 4 units in the last place', () => {
    expect(TO_FLOAT_ERROR).toBe(2 * Number.EPSILON);
  });
});
