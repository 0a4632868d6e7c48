/**
 * A keyed permutation of the integers [0, 2^52): a balanced Feistel network of 26-bit halves with
 * HMAC-SHA-256 as its round function (Luby and Rackoff: with a pseudorandom round function, four rounds
 * already give a strong pseudorandom permutation; six are used here). Without the key, an output tells
 * nothing about its input, yet two inputs never give the same output, so ids made with it are unique
 * without a counter, a lookup or a conditional write, and reveal nothing of what they were made from.
 */
import { createHmac } from 'node:crypto';

const HALF_BITS = 26;
const HALF = 2 ** HALF_BITS;
const ROUNDS = 6;
export const PERMUTATION_SIZE = HALF * HALF;

function round(key: Uint8Array, index: number, half: number): number {
  const input = Buffer.alloc(5);
  input.writeUInt8(index, 0);
  input.writeUInt32BE(half, 1);
  return createHmac('sha256', key).update(input).digest().readUInt32BE(0) % HALF;
}

function check(value: number): void {
  if (!Number.isSafeInteger(value) || value < 0 || value >= PERMUTATION_SIZE) throw new RangeError(`${value} is outside [0, 2^52)`);
}

/** The image of `value` under the permutation keyed by `key`. */
export function permute(key: Uint8Array, value: number): number {
  check(value);
  let left = Math.floor(value / HALF);
  let right = value % HALF;
  for (let i = 0; i < ROUNDS; i += 1) [left, right] = [right, (left + round(key, i, right)) % HALF];
  return left * HALF + right;
}

/** The inverse: `unpermute(key, permute(key, v)) === v`. */
export function unpermute(key: Uint8Array, value: number): number {
  check(value);
  let left = Math.floor(value / HALF);
  let right = value % HALF;
  for (let i = ROUNDS - 1; i >= 0; i -= 1) [left, right] = [(right - round(key, i, left) + HALF) % HALF, left];
  return left * HALF + right;
}
