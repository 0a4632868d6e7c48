import * as z from 'zod';
import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listSites } from '#lib/sites/service';
import { pageQuery } from '#schemas/common';

export const handler = apiHandler({ query: z.object(pageQuery) }, async ({ query, caller }) => {
  const page = await listSites(caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
