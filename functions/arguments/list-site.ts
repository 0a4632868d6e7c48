import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listSiteArguments } from '#lib/arguments/service';
import { siteParams } from '#schemas/common';
import { argumentListQuery } from '#schemas/argument';

export const handler = apiHandler({ params: siteParams, query: argumentListQuery }, async ({ site, caller, query }) => {
  const page = await listSiteArguments(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
