import { apiHandler } from '#lib/http/handler';
import { voteList } from '#lib/routes/votes/list';
import { list } from '#lib/http/response';
import { listVotes } from '#lib/votes/list';

export const handler = apiHandler(voteList, async ({ site, caller, query }) => {
  const page = await listVotes(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
