/**
 * Object keys refused anywhere in JSON we take in (CONTRACT "Decided details, security"): request
 * bodies (lib/http/body.ts) and auth-server answers (schemas/oauth.ts). JSON.parse makes them
 * ordinary own properties, but any code that later copies with `obj[key] = value` or looks a key up
 * with `in`/`obj[key]` (merges, the SDK's marshaller, an auth server's JavaScript) would reach
 * Object.prototype instead. Pure (only the error path helpers), so schemas and lib/oauth may use it.
 */
import { childPath, type ErrorDetail } from '#lib/errors';

const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A hostile value may hold thousands of refused parts; a 400 names the first ones. */
const MAX_DETAILS = 20;

/** What a walk refuses: the message for a refused object key or string, undefined for one it takes. */
interface Refusal {
  key?: (key: string) => string | undefined;
  text?: (text: string) => string | undefined;
}

/**
 * Walks a parsed JSON value depth-first in document order (iterative, so a hostile depth cannot
 * overflow the stack) and collects a detail for each object key or string `refuse` names, at most
 * MAX_DETAILS. A refused key's value is not entered. Object.keys sees an own `__proto__`, which `in`
 * or a prototype lookup would confuse.
 */
function refusedParts(value: unknown, refuse: Refusal): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0 && found.length < MAX_DETAILS) {
    const [node, at] = stack.pop()!;
    if (typeof node === 'string') {
      const message = refuse.text?.(node);
      if (message) found.push({ path: at, message });
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], childPath(at, i)]);
      continue;
    }
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    const entered: string[] = [];
    for (const key of keys) {
      const message = refuse.key?.(key);
      if (message === undefined) entered.push(key);
      else if (found.length < MAX_DETAILS) found.push({ path: childPath(at, key.toWellFormed()), message });
    }
    for (let i = entered.length - 1; i >= 0; i--) stack.push([record[entered[i]!], childPath(at, entered[i]!)]);
  }
  return found;
}

const RESERVED: Refusal = { key: (key) => (RESERVED_KEYS.has(key) ? `"${key}" is a reserved name and cannot be used as a key` : undefined) };

/** Paths of the reserved keys in a parsed JSON value, at most MAX_DETAILS. */
export const reservedKeyPaths = (value: unknown): ErrorDetail[] => refusedParts(value, RESERVED);

const MALFORMED = 'is not well-formed UTF-16 text (it holds a lone surrogate)';

const NOT_WELL_FORMED: Refusal = {
  key: (key) => (key.isWellFormed() ? undefined : `the key ${MALFORMED}`),
  text: (text) => (text.isWellFormed() ? undefined : MALFORMED),
};

/**
 * Paths of the keys and strings that are not well-formed UTF-16 (a lone surrogate, which JSON's
 * `\ud800` escapes can carry but UTF-8 cannot encode), at most MAX_DETAILS (CONTRACT "Decided
 * details, security"). A path that would itself hold one shows U+FFFD in its place.
 */
export const malformedTextPaths = (value: unknown): ErrorDetail[] => refusedParts(value, NOT_WELL_FORMED);
