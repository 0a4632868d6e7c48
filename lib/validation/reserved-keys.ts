/**
 * Object keys refused anywhere in JSON we take in (CONTRACT "Decided details, security"): request
 * bodies (lib/http/body.ts) and auth-server answers (schemas/oauth.ts). JSON.parse makes them
 * ordinary own properties, but any code that later copies with `obj[key] = value` or looks a key up
 * with `in`/`obj[key]` (merges, the SDK's marshaller, an auth server's JavaScript) would reach
 * Object.prototype instead. Pure (only the error path helpers), so schemas and lib/oauth may use it.
 */
import { childPath, type ErrorDetail } from '#lib/errors';

export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A hostile value may hold thousands of reserved keys; a 400 names the first ones. */
const MAX_RESERVED_DETAILS = 20;

/**
 * Paths of the reserved keys in a parsed JSON value, at most MAX_RESERVED_DETAILS (iterative, so a
 * hostile depth cannot overflow the stack). Object.keys sees an own `__proto__`, which `in` or a
 * prototype lookup would confuse.
 */
export function reservedKeyPaths(value: unknown): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0 && found.length < MAX_RESERVED_DETAILS) {
    const [node, at] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], childPath(at, i)]);
      continue;
    }
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const key of keys) {
      if (RESERVED_KEYS.has(key) && found.length < MAX_RESERVED_DETAILS) {
        found.push({ path: childPath(at, key), message: `"${key}" is a reserved name and cannot be used as a key` });
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      if (!RESERVED_KEYS.has(keys[i]!)) stack.push([record[keys[i]!], childPath(at, keys[i]!)]);
    }
  }
  return found;
}
