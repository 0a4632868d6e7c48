/** Keys of sites: `SITE#<s>` / `SITE`, and every site on GSI1 (`SITES`) in id order (the site list). */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const siteKeys = {
  site: (siteId: number): Key => ({ PK: sitePk(siteId), SK: 'SITE' }),
  /** GSI1: every site, in id order (the site list). */
  siteListEntry: (siteId: number) => ({ GSI1PK: 'SITES', GSI1SK: `SITE#${pad(siteId)}` }),
  siteListPartition: 'SITES',
  /**
   * What a site's delete leaves: `{ deletedAt }`, nothing else of the site (no name, no domain). Site
   * ids are never handed out twice, so it only says "this id's site was here and was deleted": the
   * OpenStad import refuses to recreate it (scripts/import-openstad/run.ts).
   */
  siteDeleted: (siteId: number): Key => ({ PK: `SITEGONE#${pad(siteId)}`, SK: 'SITEGONE' }),
} as const;
