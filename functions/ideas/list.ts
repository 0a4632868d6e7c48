import { apiHandler } from '#lib/http/handler';
import { ideaList } from '#lib/routes/ideas/list';
import { list } from '#lib/http/response';
import { listIdeas } from '#lib/ideas/service';
import { ideaListReads } from '#lib/ideas/read-plans';

export const handler = apiHandler({ ...ideaList, prefetch: ideaListReads }, async ({ site, caller, query }) => {
  const page = await listIdeas(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
