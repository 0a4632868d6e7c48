/**
 * Site bodies and record (CONTRACT "Records": `{id, name, title, domain, config, createdAt, updatedAt}`).
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { siteConfigSchema } from '#schemas/site-config';
import { queryFlag } from '#schemas/common';

const hostname = z
  .string()
  .check(
    z.maxLength(253),
    z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$/i, 'must be a host name'),
  );

const siteName = z.string().check(z.trim(), z.minLength(1), z.maxLength(255));
const siteTitle = z.nullable(z.string().check(z.maxLength(255)));

export const createSiteBody = z.object({
  name: siteName,
  title: z.optional(siteTitle),
  domain: z.optional(z.nullable(hostname)),
  config: z.optional(siteConfigSchema),
});
export type CreateSiteBody = z.infer<typeof createSiteBody>;

/** PUT is partial; `config`, when sent, replaces the stored config as a whole (CONTRACT). */
export const updateSiteBody = z.partial(createSiteBody);
export type UpdateSiteBody = z.infer<typeof updateSiteBody>;

/**
 * PATCH (`application/merge-patch+json`, RFC 7396): the fields sent change, `null` removes (the title
 * and domain become null; `config: null` drops the whole config back to the defaults). `config` is a
 * merge patch of the stored config: the merged config is then checked against the config schema as a
 * whole (lib/sites/service.ts), so its errors name full paths (`config.votes.voteType`).
 */
export const patchSiteBody = z.object({
  name: z.optional(siteName),
  title: z.optional(siteTitle),
  domain: z.optional(z.nullable(hostname)),
  config: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});
export type PatchSiteBody = z.infer<typeof patchSiteBody>;

export const siteRecord = z.object({
  id: z.int(),
  name: z.string(),
  title: z.nullable(z.string()),
  domain: z.nullable(z.string()),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SiteRecord = z.infer<typeof siteRecord>;

/** `DELETE /api/site/:id?force=1`: a service token deletes a site whose users are not anonymized (lifecycle). */
export const deleteSiteQuery = z.object({ force: queryFlag });
