import * as z from 'zod';
import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listUsers } from '#lib/users/service';
import { pageQuery, siteParams } from '#schemas/common';

export const handler = apiHandler({ params: siteParams, query: z.object(pageQuery) }, async ({ site, caller, query }) => {
  const page = await listUsers(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
