/**
 * Exact fractions over BigInt, for what Equal Shares must decide exactly: the virtual budget per voter
 * (`budget / voters + k·step`), the prices it reports ("596/9"), and, inside a run, the few comparisons
 * that floating point cannot settle (lib/results/mes-run.ts computes in floats with an error bound and
 * falls back to these only near a tie). Floating point alone would round, and a rounded price can turn a
 * tie into a win or make an affordable idea look one cent short. fraction.js would do too; these few
 * functions are less than its API.
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

export const ZERO: Rational = { n: 0n, d: 1n };

export const add = (a: Rational, b: Rational): Rational => (a.d === b.d ? rational(a.n + b.n, a.d) : rational(a.n * b.d + b.n * a.d, a.d * b.d));

export const sub = (a: Rational, b: Rational): Rational => (a.d === b.d ? rational(a.n - b.n, a.d) : rational(a.n * b.d - b.n * a.d, a.d * b.d));

/** `a · k` for a whole `k`. */
export const times = (a: Rational, k: bigint): Rational => rational(a.n * k, a.d);

/** `a / k` for a whole `k > 0`. */
export const over = (a: Rational, k: bigint): Rational => rational(a.n, a.d * k);

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
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

/**
 * A close floating-point value of `n / d`, also when they exceed the float range: within 4 units in the
 * last place (each of the two conversions and the division rounds once; the shift keeps 900 bits).
 */
export function toFloat(n: bigint, d: bigint): number {
  const top = Number(n);
  const bottom = Number(d);
  if (Number.isFinite(top) && Number.isFinite(bottom)) return top / bottom;
  const shift = BigInt(Math.max(n.toString(2).length, d.toString(2).length) - 900);
  return Number(n >> shift) / Number(d >> shift);
}

/** Relative error bound of `toFloat`. */
export const TO_FLOAT_ERROR = 4 * 2 ** -53;

export const floatOf = (a: Rational): number => toFloat(a.n, a.d);
