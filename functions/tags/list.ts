import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listTags } from '#lib/tags/service';
import { pageQuerySchema, siteParams } from '#schemas/common';

export const handler = apiHandler({ params: siteParams, query: pageQuerySchema }, async ({ site, query }) => {
  const page = await listTags(site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
