/**
 * What a public site read must not show: credentials, internal hosts and ops settings; and what a
 * frontend never reads: the server's own bookkeeping (whether the end-date mail went out) and the
 * names anonymised users are given (the API writes them; a frontend reads them on the users). What is
 * left is what forms and widgets read: length limits, vote rules, closing dates, newsletter and poll
 * switches, extra-data fields (docs/api-guide.md "Caching" gives the size). Editors and above see
 * the whole config.
 */
import type { SiteConfig } from '#lib/sites/config-defaults';

const HIDDEN_TOP_LEVEL = ['oauth', 'basicAuth', 'notifications', 'anonymize', 'ignoreBruteForce', 'host'] as const;
/** Keys inside a section that are the server's alone. */
const HIDDEN_IN: Record<string, readonly string[]> = {
  cms: ['dbName'],
  project: ['endDateNotificationSent'],
  users: ['anonymize'],
};

export function redactConfig(config: SiteConfig): Record<string, unknown> {
  const hidden = new Set<string>(HIDDEN_TOP_LEVEL);
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(config).filter(([key]) => !hidden.has(key)));
  for (const [section, keys] of Object.entries(HIDDEN_IN)) {
    const value = (config as Record<string, unknown>)[section];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      out[section] = Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
    }
  }
  return out;
}
