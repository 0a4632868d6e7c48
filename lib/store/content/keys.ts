/** Keys of ideas and articles (content items) in their site's partition. */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const contentKeys = {
  idea: (siteId: number, ideaId: number): Key => ({ PK: sitePk(siteId), SK: `IDEA#${pad(ideaId)}` }),
  ideaPrefix: 'IDEA#',
  article: (siteId: number, articleId: number): Key => ({
    PK: sitePk(siteId),
    SK: `ARTICLE#${pad(articleId)}`,
  }),
  articlePrefix: 'ARTICLE#',
} as const;
