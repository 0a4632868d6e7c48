/**
 * What a public site read must not show: credentials, internal hosts and ops settings; and what a
 * frontend never reads: the server's own bookkeeping (whether the end-date mail went out) and the
 * names anonymised users are given (the API writes them; a frontend reads them on the users). What is
 * left is what forms and widgets read: length limits, vote rules, closing dates, newsletter and poll
 * switches, extra-data fields (docs/api-guide.md "Caching" gives the size). Editors and above see
 * the whole config.
 */
import type { SiteConfig } from '#lib/sites/config-defaults';

const HIDDEN_TOP_LEVEL: ReadonlySet<string> = new Set(['oauth', 'basicAuth', 'notifications', 'anonymize', 'ignoreBruteForce', 'host']);
/** Keys inside a section that are the server's alone. */
const HIDDEN_IN: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['cms', new Set(['dbName'])],
  ['project', new Set(['endDateNotificationSent'])],
  ['users', new Set(['anonymize'])],
]);

/** The object without the `hidden` keys (its other keys in their order). */
function without(value: Record<string, unknown>, hidden: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (!hidden.has(key)) out[key] = value[key];
  return out;
}

export function redactConfig(config: SiteConfig): Record<string, unknown> {
  const out = without(config, HIDDEN_TOP_LEVEL);
  for (const [section, keys] of HIDDEN_IN) {
    const value = (config as Record<string, unknown>)[section];
    if (value && typeof value === 'object' && !Array.isArray(value)) out[section] = without(value as Record<string, unknown>, keys);
  }
  return out;
}
