/**
 * True for `{}`-style objects (what JSON.parse makes), false for arrays, null, class instances and
 * everything else. extraData only ever holds such objects, so anything else is refused, not coerced.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `__proto__` is a legal JSON key (JSON.parse makes it an own property), but code that copies such an
 * object with `obj[key] = value` (DynamoDB unmarshalling, older merge helpers) would set a prototype
 * instead. We never store or return it.
 */
export const FORBIDDEN_KEY = '__proto__';

/** Own enumerable entries without the forbidden key. */
export function safeEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([key]) => key !== FORBIDDEN_KEY);
}
