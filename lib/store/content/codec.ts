/**
 * The codec of ideas and articles (lib/store/content/content-items.ts): one shape under two key prefixes, the
 * owner's GSI1 entry while the item has an owner. Its own module so the content-item access patterns
 * and this declaration can change apart.
 */
import { defineCodec } from '#lib/store/db/codec';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import type { ContentItem, ContentKind } from '#lib/store/content/content-items';
import { storedContentItem } from '#schemas/stored/content-item';

export const contentItemCodec = defineCodec<ContentItem, [kind: ContentKind]>({
  kind: 'idea or article',
  schema: storedContentItem,
  keys: (item, kind) => ({
    ...(kind === 'IDEA' ? contentKeys.idea(item.siteId, item.id) : contentKeys.article(item.siteId, item.id)),
    ...(item.userId != null ? userKeys.ownedBy(item.userId, kind, item.id) : {}),
  }),
});
