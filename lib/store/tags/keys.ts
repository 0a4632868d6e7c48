/** Keys of tags and of their name guards. */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const tagKeys = {
  tag: (siteId: number, tagId: number): Key => ({ PK: sitePk(siteId), SK: `TAG#${pad(tagId)}` }),
  tagPrefix: 'TAG#',
  /** Uniqueness guard: one tag per (group, name) per site; both parts URI-encoded so `#` cannot collide. */
  tagName: (siteId: number, group: string, name: string): Key => ({
    PK: sitePk(siteId),
    SK: `TAGNAME#${encodeURIComponent(group)}#${encodeURIComponent(name)}`,
  }),
} as const;
