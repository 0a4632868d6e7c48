/**
 * Article paths, queries and record: an article is an idea without votes and arguments (CONTRACT),
 * limited by `config.articles`. The body schemas are the shared content-item ones.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, pathId } from '#schemas/common';
import { contentIncludeFlags, contentRecordSchema } from '#schemas/content-item';

export const articleParams = z.object({ siteId: pathId, articleId: pathId });

/** Articles have no votes, so only the creation-date orders apply. */
const articleSorts = ['createdate_desc', 'createdate_asc'] as const;

export const articleIncludeQuery = z.object(contentIncludeFlags);
export type ArticleIncludes = z.infer<typeof articleIncludeQuery>;

export const listArticlesQuery = z.extend(articleIncludeQuery, {
  ...pageQuery,
  sort: z.pipe(
    z.optional(z.enum(articleSorts, { error: `must be one of ${articleSorts.join(', ')}` })),
    z.transform((s) => s ?? 'createdate_desc'),
  ),
});
export type ListArticlesQuery = z.infer<typeof listArticlesQuery>;

export const articleRecord = contentRecordSchema;
export type ArticleRecord = z.infer<typeof articleRecord>;
