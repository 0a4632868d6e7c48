/** The idea record fields of discovery: `tags` (default []) and `location` (default null). */
import type { ContentItem } from '#lib/store/content/content-items';
import type { Location } from '#schemas/discovery';

export const discoveryFieldsOfItem = (item: ContentItem): { tags: number[]; location: Location | null } => ({
  tags: item.tags ?? [],
  location: item.location ?? null,
});
