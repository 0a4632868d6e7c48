import { apiHandler } from '#lib/http/handler';
import { articleList } from '#lib/routes/articles/list';
import { list } from '#lib/http/response';
import { listArticles } from '#lib/articles/service';

export const handler = apiHandler(articleList, async ({ site, query }) => {
  const page = await listArticles(site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
