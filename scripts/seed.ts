/**
 * The demo site `npm start` creates on an empty database, so a newcomer has something to call.
 */
import { listSites, putNewSite } from '#lib/store/sites';
import { nextId } from '#lib/store/counters';
import type { SiteConfigInput } from '#schemas/site-config';
// Lifecycle: the demo site's job markers, as a site create writes them.
import { siteJobDues } from '#lib/jobs/rules';
import { withDefaults } from '#lib/sites/config-defaults';
import { syncJobMarkers } from '#lib/store/jobs';

/** @param oauth the `config.oauth.default` block pointing at the local auth server. */
export async function seedDemoSite(options: { oauth?: Record<string, string> } = {}) {
  const existing = await listSites({ pageSize: 1 });
  if (existing.items.length > 0) return undefined;
  const now = new Date().toISOString();
  const config: SiteConfigInput = {
    allowedDomains: ['localhost', '127.0.0.1'],
    votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' },
    newslettersignup: { isActive: true },
    ideas: { extraData: { theme: { type: 'string' }, images: { type: 'arrayOfStrings' } } },
    ...(options.oauth ? { oauth: { default: options.oauth } } : {}),
  };
  const id = await nextId('site');
  await putNewSite({ id, name: 'demo', title: 'Demo participation site', domain: 'localhost', config, createdAt: now, updatedAt: now });
  await syncJobMarkers(id, siteJobDues(withDefaults(config), now), now);
  return id;
}
