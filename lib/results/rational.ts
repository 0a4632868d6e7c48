/**
 * Exact fractions over BigInt, the little Equal Shares needs outside a run: the virtual budget per voter
 * (`budget / voters + k·step`) and the prices it reports ("596/9"). Inside a run, equal-shares.ts keeps
 * every budget over one common denominator instead, so it needs no fraction type there. Floating point
 * would round these values, and a rounded price can turn a tie into a win or make an affordable idea
 * look one cent short. fraction.js would do too; four functions are less than its API.
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

export const add = (a: Rational, b: Rational): Rational => rational(a.n * b.d + b.n * a.d, a.d * b.d);

/** `"n/d"`, or `"n"` for a whole number. */
export const format = (a: Rational): string => (a.d === 1n ? `${a.n}` : `${a.n}/${a.d}`);

/** Parses what `format` writes. */
export function parse(text: string): Rational {
  const match = /^(-?\d+)(?:\/(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a fraction: ${text}`);
  return rational(BigInt(match[1]!), BigInt(match[2] ?? '1'));
}
