import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listVotes } from '#lib/votes/list';
import { siteParams } from '#schemas/common';
import { listVotesQuery } from '#schemas/votes';

export const handler = apiHandler({ params: siteParams, query: listVotesQuery }, async ({ site, caller, query }) => {
  const page = await listVotes(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
