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

export const createSiteBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  title: z.optional(z.nullable(z.string().check(z.maxLength(255)))),
  domain: z.optional(z.nullable(hostname)),
  config: z.optional(siteConfigSchema),
});
export type CreateSiteBody = z.infer<typeof createSiteBody>;

/** PUT is partial; `config`, when sent, replaces the stored config as a whole (CONTRACT). */
export const updateSiteBody = z.partial(createSiteBody);
export type UpdateSiteBody = z.infer<typeof updateSiteBody>;

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
