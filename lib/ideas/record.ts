/**
 * An idea item as its CONTRACT record: the shared content fields plus what only ideas carry (`tags`,
 * `location`). Every answer that shows an idea (create, update, lists, activity, anonymization) goes
 * through here, so no view of an idea lacks a field.
 */
import { toContentRecord } from '#lib/content/record';
import { discoveryFieldsOfItem } from '#lib/discovery/record';
import type { ContentItem } from '#lib/store/content/content-items';

export const toIdeaRecord = (item: ContentItem) => ({
  ...toContentRecord(item),
  ...discoveryFieldsOfItem(item),
  publishDate: item.publishDate ?? item.createdAt,
});
