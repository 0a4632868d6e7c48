import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { getArticleRecord } from '#lib/articles/service';
import { articleIncludeQuery, articleParams } from '#schemas/article';

export const handler = apiHandler({ params: articleParams, query: articleIncludeQuery }, async ({ site, params, query }) =>
  ok(await getArticleRecord(site, params.articleId, query)),
);
