/**
 * What the table can hold, for values that arrive as free-form JSON (extraData, a site's config). A write that breaks one of these fails inside DynamoDB or the SDK's
 * marshaller, which would reach the client as a 500; callers check first and answer 400 instead.
 *
 * - Numbers: the marshaller refuses anything beyond +-(2^53 - 1) (it would lose precision), and
 *   DynamoDB refuses magnitudes below 1e-130 (underflow); NaN and Infinity cannot come from JSON.
 * - Map keys: DynamoDB refuses an empty attribute name, also inside maps.
 * - Nesting: an attribute value holds at most 31 levels of maps and lists (32 with the item).
 *
 * Pure: no SDK, so domain code and schemas may use it.
 */

/** Maps and lists one attribute value may nest, the value itself included (DynamoDB allows 32 levels with the item). */
export const MAX_ATTRIBUTE_NESTING = 31;

const MIN_MAGNITUDE = 1e-130;

export interface StorageProblem {
  /** Dot path (`extraData.a.b`, array positions as `.2`). */
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
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}.${i}`, level]);
      continue;
    }
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (key === '') return { path: at, message: 'has an empty key, which cannot be stored' };
      stack.push([child, at === '' ? key : `${at}.${key}`, level]);
    }
  }
  return undefined;
}
