import { apiHandler } from '#lib/http/handler';
import { siteList } from '#lib/routes/sites/list';
import { list } from '#lib/http/response';
import { listSites } from '#lib/site-admin/service';

export const handler = apiHandler(siteList, async ({ query, caller }) => {
  const page = await listSites(caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
