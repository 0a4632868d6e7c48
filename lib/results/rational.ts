/**
 * Exact fractions over BigInt, only as much as the Method of Equal Shares needs. Payments there are
 * split costs (cost minus what poorer voters paid, divided by the number of richer voters), so the
 * denominators grow with every purchase; floating point would round them, and a rounded price can turn
 * a tie into a win or make an affordable idea look one cent short. A library (fraction.js) would do,
 * but five operations on a reduced (numerator, denominator) pair are less than its API surface.
 */

/** A reduced fraction `n / d` with `d > 0`. */
export interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(n: bigint, d: bigint = 1n): Rational {
  if (d === 0n) throw new RangeError('Division by zero');
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (sign * n) / g, d: (sign * d) / g };
}

export const ZERO: Rational = rational(0n);

export const add = (a: Rational, b: Rational): Rational => rational(a.n * b.d + b.n * a.d, a.d * b.d);

export const sub = (a: Rational, b: Rational): Rational => rational(a.n * b.d - b.n * a.d, a.d * b.d);

export const mulInt = (a: Rational, k: bigint): Rational => rational(a.n * k, a.d);

export const divInt = (a: Rational, k: bigint): Rational => rational(a.n, a.d * k);

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compare(a: Rational, b: Rational): number {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `"n/d"`, or `"n"` for a whole number. */
export const format = (a: Rational): string => (a.d === 1n ? `${a.n}` : `${a.n}/${a.d}`);

/** Parses what `format` writes. */
export function parse(text: string): Rational {
  const match = /^(-?\d+)(?:\/(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a fraction: ${text}`);
  return rational(BigInt(match[1]!), BigInt(match[2] ?? '1'));
}
