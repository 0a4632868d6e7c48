import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listArticles } from '#lib/articles/service';
import { siteParams } from '#schemas/common';
import { listArticlesQuery } from '#schemas/article';

export const handler = apiHandler({ params: siteParams, query: listArticlesQuery }, async ({ site, query }) => {
  const page = await listArticles(site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
