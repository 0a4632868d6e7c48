import { apiHandler } from '#lib/http/handler';
import { articleGet } from '#lib/routes/articles/get';
import { ok } from '#lib/http/response';
import { getArticleRecord } from '#lib/articles/service';

export const handler = apiHandler(articleGet, async ({ site, params, query }) =>
  ok(await getArticleRecord(site, params.articleId, query)),
);
