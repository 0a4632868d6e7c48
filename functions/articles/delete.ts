import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteArticle } from '#lib/articles/service';
import { articleParams } from '#schemas/article';

export const handler = apiHandler({ params: articleParams }, async ({ site, caller, params }) => {
  await deleteArticle(site, caller, params.articleId);
  return deleted(params.articleId);
});
