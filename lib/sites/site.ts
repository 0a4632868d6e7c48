/**
 * A site as every rule works with it: the stored site with its config merged over the defaults
 * (lib/sites/config-defaults.ts). Loading one is the first thing a site-scoped request does
 * (lib/request/setup.ts); the site endpoints' own rules are lib/site-admin.
 */
import { notFound } from '#lib/errors';
import { withDefaults, type SiteConfig } from '#lib/sites/config-defaults';
import * as store from '#lib/store/sites/sites';

/** A loaded site with its config merged over the defaults: what every site-scoped request works with. */
export interface Site extends Omit<store.SiteItem, 'config'> {
  config: SiteConfig;
}

export async function loadSite(siteId: number): Promise<Site> {
  const site = await findSite(siteId);
  if (!site) throw notFound(`Site ${siteId} not found`);
  return site;
}

/** The site with its config merged over the defaults, or undefined (one read). */
export async function findSite(siteId: number): Promise<Site | undefined> {
  const item = await store.getSite(siteId);
  return item ? { ...item, config: withDefaults(item.config) } : undefined;
}
