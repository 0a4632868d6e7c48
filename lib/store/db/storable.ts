/**
 * What the table can hold, for values that arrive as free-form JSON (extraData, a site's config) and
 * for items that grow by merging. A write that breaks one of these fails inside DynamoDB or the SDK's
 * marshaller, which would reach the client as a 500; callers check first and answer 400 instead.
 *
 * - Numbers: the marshaller refuses anything beyond +-(2^53 - 1) (it would lose precision), and
 *   DynamoDB refuses magnitudes below 1e-130 (underflow); NaN and Infinity cannot come from JSON.
 * - Map keys: DynamoDB refuses an empty attribute name, also inside maps.
 * - Nesting: an attribute value holds at most 31 levels of maps and lists (32 with the item).
 * - Size: an item holds at most 400 KB, counted as DynamoDB counts it (attribute names included).
 *
 * Pure: no SDK, so domain code and schemas may use it.
 */
import { childPath } from '#lib/errors';

/** Maps and lists one attribute value may nest, the value itself included (DynamoDB allows 32 levels with the item). */
export const MAX_ATTRIBUTE_NESTING = 31;

/** DynamoDB's item size limit. */
export const MAX_ITEM_BYTES = 400 * 1024;

const MIN_MAGNITUDE = 1e-130;

interface StorageProblem {
  /** Dot path (`extraData.a.b`, array positions as `[2]`; lib/errors.ts errorPath). */
  path: string;
  message: string;
}

export const isStorableNumber = (n: number): boolean =>
  Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= MIN_MAGNITUDE);

export const NUMBER_RANGE_MESSAGE = `must be a number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}, and 0 or at least ${MIN_MAGNITUDE} in size`;

/**
 * The first part of a JSON value that cannot be stored, if any (one problem per value: CONTRACT wants
 * one `details` entry per failing field). Iterative, so a hostile depth cannot overflow the stack.
 * @param maxNesting maps and lists allowed from `value` down, `value` itself included.
 */
export function firstUnstorablePart(value: unknown, path: string, maxNesting: number): StorageProblem | undefined {
  const stack: Array<[unknown, string, number]> = [[value, path, 0]];
  while (stack.length > 0) {
    const [node, at, above] = stack.pop()!;
    if (typeof node === 'number') {
      if (!isStorableNumber(node)) return { path: at, message: NUMBER_RANGE_MESSAGE };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const level = above + 1;
    if (level > maxNesting) return { path: at, message: `is nested more than ${maxNesting} levels deep` };
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], childPath(at, i), level]);
      continue;
    }
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (key === '') return { path: at, message: 'has an empty key, which cannot be stored' };
      stack.push([child, childPath(at, key), level]);
    }
  }
  return undefined;
}

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** DynamoDB's size of a number: about one byte per two significant digits, plus one. */
function numberBytes(n: number): number {
  const digits = String(Math.abs(n))
    .replace(/e.*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** The size of one attribute value as DynamoDB counts it (its documented rules; iterative). */
function valueBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') total += utf8(node);
    else if (typeof node === 'number') total += numberBytes(node);
    else if (typeof node === 'boolean' || node === null || node === undefined) total += 1;
    // Binary (B): its length in bytes, not a map of its bytes.
    else if (node instanceof Uint8Array) total += node.byteLength;
    else if (node instanceof Set || Array.isArray(node)) {
      total += 3;
      for (const child of node) {
        total += 1;
        stack.push(child);
      }
    } else if (typeof node === 'object') {
      total += 3;
      for (const [key, child] of Object.entries(node)) {
        total += 1 + utf8(key);
        stack.push(child);
      }
    } else total += utf8(String(node));
  }
  return total;
}

/** An item's size as DynamoDB counts it: attribute names and values (undefined attributes are not stored). */
export function itemBytes(item: Record<string, unknown>): number {
  let total = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    total += utf8(name) + valueBytes(value);
  }
  return total;
}

/** True when the item fits, with a margin for DynamoDB counting a little differently than documented. */
export const fitsInItem = (item: Record<string, unknown>): boolean => itemBytes(item) <= MAX_ITEM_BYTES - 8 * 1024;
