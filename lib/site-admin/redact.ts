/**
 * What a public site read must not show (CONTRACT "Identity and roles", site row): credentials,
 * internal hosts and ops settings. Editors and above see the whole config.
 */
import type { SiteConfig } from '#lib/sites/config-defaults';

const HIDDEN_TOP_LEVEL = ['oauth', 'basicAuth', 'notifications', 'anonymize', 'ignoreBruteForce', 'host'] as const;

export function redactConfig(config: SiteConfig): Record<string, unknown> {
  const hidden = new Set<string>(HIDDEN_TOP_LEVEL);
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(config).filter(([key]) => !hidden.has(key)));
  if (config.cms && typeof config.cms === 'object') {
    const { dbName: _dbName, ...cms } = config.cms as Record<string, unknown>;
    out.cms = cms;
  }
  return out;
}
