import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listSignups } from '#lib/newsletter/service';
import { siteParams } from '#schemas/common';
import { listSignupsQuery } from '#schemas/newsletter';

export const handler = apiHandler({ params: siteParams, query: listSignupsQuery }, async ({ site, caller, query }) => {
  const page = await listSignups(caller, site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
