/**
 * JSON Merge Patch, RFC 7396 section 2, as the RFC writes it: an object merges key by key, `null`
 * removes a key, anything else (arrays included) replaces. Ten lines of the standard's own
 * pseudocode, pure; the input values are not changed. Bodies reach it without reserved keys
 * (lib/http/body.ts), so plain assignment cannot touch a prototype.
 */
import { isPlainObject } from '#schemas/stored/read';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out = new Map<string, unknown>(isPlainObject(target) ? Object.entries(target) : []);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) out.delete(name);
    else out.set(name, applyMergePatch(out.get(name), value));
  }
  return Object.fromEntries(out);
}
