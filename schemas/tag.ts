/**
 * Tags of a site (CONTRACT "Decided details, discovery"): record `{id, siteId, name, group,
 * createdAt, updatedAt}`; `name` 1-64 characters, unique per site and group.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pathId } from '#schemas/common';

export const tagParams = z.object({ siteId: pathId, tagId: pathId });

// The `meta` bounds are for the OpenAPI document only (code points, as the refinements count them after trimming).
const tagName = z
  .pipe(
    z.string({ error: 'must be a string' }).register(z.globalRegistry, { minLength: 1, maxLength: 64, pattern: '\\S' }),
    z.transform((s) => s.trim()),
  )
  .check(z.refine((s) => [...s].length >= 1 && [...s].length <= 64, 'must be 1 to 64 characters long'));
/** A group gathers tags (e.g. `theme`, `area`); null or absent: no group. */
const tagGroup = z.nullable(
  z
    .pipe(z.string({ error: 'must be a string or null' }).register(z.globalRegistry, { maxLength: 64 }), z.transform((s) => s.trim()))
    .check(z.refine((s) => [...s].length <= 64, 'must be at most 64 characters long')),
);

export const createTagBody = z.object({ name: tagName, group: z.optional(tagGroup) });
export type CreateTagBody = z.infer<typeof createTagBody>;
export const updateTagBody = z.partial(createTagBody);
export type UpdateTagBody = z.infer<typeof updateTagBody>;

export const tagRecord = z.object({
  id: z.int(),
  siteId: z.int(),
  name: z.string(),
  group: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TagRecord = z.infer<typeof tagRecord>;
