import { apiHandler } from '#lib/http/handler';
import { articleDelete } from '#lib/routes/articles/delete';
import { deleted } from '#lib/http/response';
import { deleteArticle } from '#lib/articles/service';

export const handler = apiHandler(articleDelete, async ({ site, caller, params }) => {
  await deleteArticle(site, caller, params.articleId);
  return deleted(params.articleId);
});
