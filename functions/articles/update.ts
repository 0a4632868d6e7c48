import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateArticle } from '#lib/articles/service';
import { jsonObjectBody } from '#schemas/content-item';
import { articleParams } from '#schemas/article';

export const handler = apiHandler({ params: articleParams, body: jsonObjectBody }, async ({ site, caller, params, body }) =>
  ok(await updateArticle(site, caller, params.articleId, body)),
);
