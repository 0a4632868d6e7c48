/**
 * The codec of ideas and articles (lib/store/content/content-items.ts): one shape under two key prefixes, the
 * owner's GSI1 entry while the item has an owner. Its own module so the content-item access patterns
 * and this declaration can change apart.
 */
import { defineCodec } from '#lib/store/db/codec';
import { keys } from '#lib/store/db/keys';
import type { ContentItem, ContentKind } from '#lib/store/content/content-items';
import { storedContentItem } from '#schemas/stored/content-item';

export const contentItemCodec = defineCodec<ContentItem, [kind: ContentKind]>({
  kind: 'idea or article',
  schema: storedContentItem,
  keys: (item, kind) => ({
    ...(kind === 'IDEA' ? keys.idea(item.siteId, item.id) : keys.article(item.siteId, item.id)),
    ...(item.userId != null ? keys.ownedBy(item.userId, kind, item.id) : {}),
  }),
});
