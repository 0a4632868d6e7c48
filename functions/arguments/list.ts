import { apiHandler } from '#lib/http/handler';
import { argumentList } from '#lib/routes/arguments/list';
import { list } from '#lib/http/response';
import { listIdeaArguments } from '#lib/arguments/service';

export const handler = apiHandler(argumentList, async ({ site, caller, params, query }) => {
  const page = await listIdeaArguments(site, caller, params.ideaId, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
