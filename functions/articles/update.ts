import { apiHandler } from '#lib/http/handler';
import { articleUpdate } from '#lib/routes/articles/update';
import { ok } from '#lib/http/response';
import { updateArticle } from '#lib/articles/service';

export const handler = apiHandler(articleUpdate, async ({ site, caller, params, body }) =>
  ok(await updateArticle(site, caller, params.articleId, body)),
);
