/**
 * The idea body fields of discovery, `tags` and `location` (CONTRACT: set by the owner under the
 * usual edit rule and by moderators, on create and update). Tag ids must name tags of the site: all
 * of them are checked with one BatchGet, and an unknown one is a 400 at `tags[i]`.
 */
import { validationError } from '#lib/errors';
import { detailsOf } from '#lib/validation/zod-errors';
import { getLiveTagIds } from '#lib/store/tags/tags';
import { ideaDiscoveryFields, type Location } from '#schemas/discovery';

interface DiscoveryPatch {
  tags?: number[];
  location?: Location | null;
}

/** The discovery fields the body sets (absent ones are left out), validated. */
export async function discoveryFieldsOf(siteId: number, body: Record<string, unknown>): Promise<DiscoveryPatch> {
  const parsed = ideaDiscoveryFields.safeParse({ tags: body.tags, location: body.location });
  if (!parsed.success) throw validationError(detailsOf(parsed.error));
  const patch: DiscoveryPatch = {};
  if (parsed.data.location !== undefined) patch.location = parsed.data.location;
  if (parsed.data.tags !== undefined) {
    const tags = parsed.data.tags;
    await assertTagsExist(siteId, tags);
    patch.tags = [...new Set(tags)];
  }
  return patch;
}

export async function assertTagsExist(siteId: number, tags: readonly number[]): Promise<void> {
  const live = await getLiveTagIds(siteId, [...new Set(tags)]);
  const details = tags.flatMap((id, i) => (live.has(id) ? [] : [{ path: `tags[${i}]`, message: `Tag ${id} not found on site ${siteId}` }]));
  if (details.length > 0) throw validationError(details);
}
