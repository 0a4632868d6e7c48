/**
 * Tags of a site (CONTRACT "Decided details, discovery"): record `{id, siteId, name, group,
 * createdAt, updatedAt}`; `name` 1-64 characters, unique per site and group.
 */
import * as z from 'zod';
import { pathId } from '#schemas/common';

export const tagParams = z.object({ siteId: pathId, tagId: pathId });
export type TagParams = z.infer<typeof tagParams>;

// The `meta` bounds are for the OpenAPI document only (code points, as the refinements count them after trimming).
const tagName = z
  .string({ error: 'must be a string' })
  .meta({ minLength: 1, maxLength: 64, pattern: '\\S' })
  .transform((s) => s.trim())
  .refine((s) => [...s].length >= 1 && [...s].length <= 64, 'must be 1 to 64 characters long');
/** A group gathers tags (e.g. `theme`, `area`); null or absent: no group. */
const tagGroup = z
  .string({ error: 'must be a string or null' })
  .meta({ maxLength: 64 })
  .transform((s) => s.trim())
  .refine((s) => [...s].length <= 64, 'must be at most 64 characters long')
  .nullable();

export const createTagBody = z.object({ name: tagName, group: tagGroup.optional() });
export type CreateTagBody = z.infer<typeof createTagBody>;
export const updateTagBody = createTagBody.partial();
export type UpdateTagBody = z.infer<typeof updateTagBody>;

export const tagRecord = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  name: z.string(),
  group: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TagRecord = z.infer<typeof tagRecord>;
