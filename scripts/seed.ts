/**
 * The demo site `npm start` creates on an empty database, so a newcomer has something to call.
 */
import { listSites, putNewSite, updateSite } from '#lib/store/sites/sites';
import type { SiteConfigInput } from '#schemas/site-config';
// Lifecycle: the demo site's job markers, as a site create writes them.
import { siteJobDues } from '#lib/sites/job-dues';
import { withDefaults } from '#lib/sites/config-defaults';
import { syncJobMarkers } from '#lib/store/jobs/jobs';
import { DEMO_SITE_ID } from './start/demo-site.ts';

/**
 * @param oauth the `config.oauth.default` block pointing at the local auth server.
 * @public loaded by scripts/start.ts inside a Promise.all, where knip does not follow the import.
 */
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
  const id = DEMO_SITE_ID;
  await putNewSite({ id, name: 'demo', title: 'Demo participation site', domain: 'localhost', config, createdAt: now, updatedAt: now });
  await syncJobMarkers(id, siteJobDues(withDefaults(config), now), now);
  return id;
}

/**
 * On every start: the sites that log in with the local auth server's demo client follow its current
 * URL (it may be on another port than last time). Returns how many sites were changed.
 * @public loaded by scripts/start.ts inside a Promise.all, where knip does not follow the import.
 */
export async function pointDemoSitesAt(authServerUrl: string, clientId = 'demo-site'): Promise<number> {
  let changed = 0;
  let cursor: string | undefined;
  do {
    const page = await listSites({ pageSize: 100, cursor });
    for (const site of page.items) {
      const oauth = (site.config as { oauth?: Record<string, Record<string, string>> } | undefined)?.oauth;
      const entries = Object.entries(oauth ?? {}).filter(([, c]) => c?.['auth-client-id'] === clientId && c['auth-server-url'] !== authServerUrl);
      if (entries.length === 0) continue;
      const next = { ...oauth };
      for (const [name, c] of entries) next[name] = { ...c, 'auth-server-url': authServerUrl };
      await updateSite(site.id, { config: { ...site.config, oauth: next }, updatedAt: new Date().toISOString() });
      changed++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return changed;
}
