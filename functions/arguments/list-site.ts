import { apiHandler } from '#lib/http/handler';
import { argumentListSite } from '#lib/routes/arguments/list-site';
import { list } from '#lib/http/response';
import { listSiteArguments } from '#lib/arguments/service';

export const handler = apiHandler(argumentListSite, async ({ site, caller, query }) => {
  const page = await listSiteArguments(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
