/**
 * Site bodies and record (CONTRACT "Records": `{id, name, title, domain, config, createdAt, updatedAt}`).
 */
import * as z from 'zod';
import { siteConfigSchema } from '#schemas/site-config';
import { queryFlag } from '#schemas/common';

const hostname = z
  .string()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$/i, 'must be a host name');

export const createSiteBody = z.object({
  name: z.string().trim().min(1).max(255),
  title: z.string().max(255).nullable().optional(),
  domain: hostname.nullable().optional(),
  config: siteConfigSchema.optional(),
});
export type CreateSiteBody = z.infer<typeof createSiteBody>;

/** PUT is partial; `config`, when sent, replaces the stored config as a whole (CONTRACT). */
export const updateSiteBody = createSiteBody.partial();
export type UpdateSiteBody = z.infer<typeof updateSiteBody>;

export const siteRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string().nullable(),
  domain: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SiteRecord = z.infer<typeof siteRecord>;

/** `DELETE /api/site/:id?force=1`: a service token deletes a site whose users are not anonymized (lifecycle). */
export const deleteSiteQuery = z.object({ force: queryFlag });
