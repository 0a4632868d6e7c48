/**
 * The site endpoints' rules: create, read, update, delete and list sites, with the config redacted for
 * the public. Loading the site a request works on is lib/sites/site.ts.
 */
import { env } from '#lib/config/env';
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { conflict, notFound, validationError } from '#lib/errors';
import { detailsOf } from '#lib/validation/zod-errors';
import type { Site } from '#lib/sites/site';
import { authServerUrlDetails } from '#lib/auth-server/config';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { isBasicAuthActive } from '#lib/auth/basic-auth';
import { withDefaults } from '#lib/sites/config-defaults';
import { redactConfig } from '#lib/site-admin/redact';
import { keepStoredSecrets, maskSecrets, sendsMask } from '#lib/sites/secrets';
import { applyMergePatch } from '#lib/sites/merge-patch';
import { projectHasEnded } from '#lib/sites/project';
import { siteJobDues } from '#lib/sites/job-dues';
import { syncJobMarkers } from '#lib/store/jobs/jobs';
import { hasUsersNotAnonymized } from '#lib/store/users/users';
import { withNewId } from '#lib/store/db/ids';
import * as store from '#lib/store/sites/sites';
import { firstUnstorablePart, MAX_ATTRIBUTE_NESTING } from '#lib/store/db/storable';
import type { PageRequest } from '#lib/store/db/query';
import { REPLAN, withReplan } from '#lib/store/db/replan';
import { siteConfigSchema, type SiteConfigInput } from '#schemas/site-config';
import type { CreateSiteBody, PatchSiteBody, SiteRecord, UpdateSiteBody } from '#schemas/site';

/**
 * The site as a caller may read it: editors and above see the whole config but its secrets, which
 * nobody reads back (lib/sites/secrets.ts); everyone else the redacted config.
 */
export function toSiteRecord(site: Site, caller: Caller): SiteRecord {
  const config = access.site.seesFullConfig(caller, site.id) ? maskSecrets(site.config) : redactConfig(site.config);
  return {
    id: site.id,
    name: site.name,
    title: site.title ?? null,
    domain: site.domain ?? null,
    config,
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}

/**
 * A page of the site list. A site closed by Basic Auth is left out (CONTRACT "Decided details,
 * security") unless the caller may see it closed: a service token, or a user token whose user is
 * admin of that very site (on this site-less route a user token speaks only for its own site). The
 * filter runs on the page read, so a page may hold fewer sites than asked for (CONTRACT allows it).
 */
export async function listSites(caller: Caller, page: PageRequest) {
  const result = await store.listSites(page);
  const records = result.items
    .map((item): Site => ({ ...item, config: withDefaults(item.config) }))
    .filter((site) => !isBasicAuthActive(site.config) || access.site.seesClosed(caller, site.id))
    .map((site) => toSiteRecord(site, caller));
  return { records, nextCursor: result.nextCursor };
}

/**
 * The config schema keeps unknown keys (as OpenStad does), so a config can carry any JSON: it must
 * still be storable (numbers, empty keys, nesting), else DynamoDB would refuse it with a 500.
 */
function assertStorableConfig(config: unknown): void {
  if (config === undefined) return;
  const problem = firstUnstorablePart(config, 'config', MAX_ATTRIBUTE_NESTING);
  if (problem) throw validationError([problem], 'Invalid body');
  // No probing of internal networks through a site's auth server (lib/auth-server/address-policy.ts).
  const refused = authServerUrlDetails(config, env().isLocalStage);
  if (refused.length > 0) throw validationError(refused, 'Invalid body');
}

/**
 * `kept`: a site brought in from another system with its own id and dates (the OpenStad import, whose
 * ids are reserved: lib/store/imports/reservations.ts); otherwise a new id (lib/store/db/ids.ts).
 */
export async function createSite(
  caller: Caller,
  body: CreateSiteBody,
  kept?: { id: number; createdAt: string; updatedAt: string },
): Promise<SiteRecord> {
  access.site.create(caller);
  // A new site has no stored secret a mask could stand for (400 naming the path).
  const config = keepStoredSecrets(body.config ?? {}, undefined);
  assertStorableConfig(config);
  const now = new Date().toISOString();
  const make = (id: number): store.SiteItem => ({
    id,
    name: body.name,
    title: body.title ?? null,
    domain: body.domain ?? null,
    config,
    createdAt: kept?.createdAt ?? now,
    updatedAt: kept?.updatedAt ?? now,
  });
  const put = async (id: number) => {
    const item = make(id);
    await store.putNewSite(item);
    return item;
  };
  const item = kept ? await put(kept.id) : await withNewId(put);
  const site = { ...item, config: withDefaults(item.config) };
  await syncJobMarkers(site.id, siteJobDues(site.config, now), now);
  return toSiteRecord(site, caller);
}

type SiteChanges = Partial<Pick<store.SiteItem, 'name' | 'title' | 'domain' | 'config'>>;

/** An `updatedAt` after `previous`, so the conditional write below can tell two changes apart. */
const laterThan = (previous: string) => new Date(Math.max(Date.now(), Date.parse(previous) + 1)).toISOString();

/**
 * Writes a change. One computed from the site as stored (a merge patch, a secret kept from its mask)
 * reads it consistently, computes, and writes on condition that the site is unchanged since, else
 * plans again (lib/store/db/replan.ts; 409 when it keeps losing): no read-modify-write without a
 * condition (DESIGN habit 8), so a concurrent change is never lost. A change that does not depend on
 * what is stored is one write.
 */
async function changeSite(caller: Caller, site: Site, change: SiteChanges | ((stored: store.SiteItem) => SiteChanges)): Promise<SiteRecord> {
  access.site.manage(caller, site.id);
  const updated = await withReplan(
    async () => {
      if (typeof change !== 'function') {
        assertStorableConfig(change.config);
        return store.updateSite(site.id, { ...change, updatedAt: laterThan(site.updatedAt) });
      }
      const stored = await store.getSite(site.id, { consistent: true });
      if (!stored) return undefined;
      const changes = change(stored);
      assertStorableConfig(changes.config);
      const written = await store.updateSite(site.id, { ...changes, updatedAt: laterThan(stored.updatedAt) }, stored.updatedAt);
      return written === 'changed' ? REPLAN : written;
    },
    () => conflict(`Site ${site.id} was changed by other requests at the same time; read it again and retry`),
  );
  if (!updated || updated === 'changed') throw notFound(`Site ${site.id} not found`);
  const merged = { ...updated, config: withDefaults(updated.config) };
  // The scheduled jobs find their work through markers that follow the config (lib/store/jobs/jobs.ts).
  await syncJobMarkers(site.id, siteJobDues(merged.config, updated.updatedAt), updated.updatedAt);
  return toSiteRecord(merged, caller);
}

/**
 * PUT: the fields sent replace the stored ones; `config`, when sent, replaces the config whole. Only
 * a config that sends a secret's mask back depends on what is stored.
 */
export function updateSite(caller: Caller, site: Site, body: UpdateSiteBody): Promise<SiteRecord> {
  const fields = { name: body.name, title: body.title, domain: body.domain };
  if (body.config === undefined || !sendsMask(body.config)) return changeSite(caller, site, { ...fields, config: body.config });
  const config = body.config;
  return changeSite(caller, site, (stored) => ({ ...fields, config: keepStoredSecrets(config, stored.config) }));
}

/**
 * PATCH with a JSON Merge Patch (RFC 7396): only the keys named change, `null` removes one. The
 * merged config is checked as a whole, as a PUT of it would be.
 */
export function patchSite(caller: Caller, site: Site, patch: PatchSiteBody): Promise<SiteRecord> {
  const fields = { name: patch.name, title: patch.title, domain: patch.domain };
  const config = patch.config;
  if (config === undefined) return changeSite(caller, site, fields);
  return changeSite(caller, site, (stored) => ({ ...fields, config: mergedConfig(stored.config, config) }));
}

function mergedConfig(stored: SiteConfigInput, patch: Record<string, unknown> | null): SiteConfigInput {
  const merged = patch === null ? {} : applyMergePatch(stored, patch);
  const parsed = z.safeParse(siteConfigSchema, merged);
  if (!parsed.success) throw validationError(detailsOf(parsed.error, 'config'), 'Invalid body');
  return keepStoredSecrets(parsed.data, stored, { sent: patch });
}

/**
 * A site whose project has not ended must not take its users' data along unnoticed while some are
 * not anonymized (CONTRACT lifecycle): 409, unless a service token forces it (`?force=1`).
 */
export async function deleteSite(caller: Caller, site: Site, options: { force?: boolean } = {}): Promise<void> {
  access.site.manage(caller, site.id);
  const forced = options.force === true && caller.kind === 'service';
  if (!forced && !projectHasEnded(site.config) && (await hasUsersNotAnonymized(site.id))) {
    throw conflict(
      `Site ${site.id} still has users who are not anonymized and its project has not ended; ` +
        'end the project (project.projectHasEnded) or anonymize its users first (a service token may force it with ?force=1)',
    );
  }
  await store.deleteSiteAndData(site.id);
}
