/** Keys of sites: `SITE#<s>` / `SITE`, and every site on GSI1 (`SITES`) in id order (the site list). */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const siteKeys = {
  site: (siteId: number): Key => ({ PK: sitePk(siteId), SK: 'SITE' }),
  /** GSI1: every site, in id order (the site list). */
  siteListEntry: (siteId: number) => ({ GSI1PK: 'SITES', GSI1SK: `SITE#${pad(siteId)}` }),
  siteListPartition: 'SITES',
} as const;
