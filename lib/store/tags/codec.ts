/** The codecs of the tags folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { tagKeys } from '#lib/store/tags/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedTag, type StoredTag } from '#schemas/stored/tag';

export const tagCodec = defineCodec<StoredTag>({
  kind: 'tag',
  schema: storedTag,
  keys: (item) => tagKeys.tag(item.siteId, item.id),
});
