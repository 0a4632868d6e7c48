import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listIdeas } from '#lib/ideas/service';
import { ideaListReads } from '#lib/ideas/read-plans';
import { siteParams } from '#schemas/common';
import { listIdeasQuery } from '#schemas/idea';

export const handler = apiHandler({ params: siteParams, query: listIdeasQuery, prefetch: ideaListReads }, async ({ site, caller, query }) => {
  const page = await listIdeas(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
