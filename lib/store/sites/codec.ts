/** The codecs of the sites folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { siteKeys } from '#lib/store/sites/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedSite, type StoredSite } from '#schemas/stored/site';

/** A site is on GSI1 (`SITES`) from its first write on: the site list. */
export const siteCodec = defineCodec<StoredSite>({
  kind: 'site',
  schema: storedSite,
  keys: (site) => ({ ...siteKeys.site(site.id), ...siteKeys.siteListEntry(site.id) }),
});
