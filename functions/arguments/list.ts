import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listIdeaArguments } from '#lib/arguments/service';
import { argumentListQuery, ideaArgumentsParams } from '#schemas/argument';

export const handler = apiHandler({ params: ideaArgumentsParams, query: argumentListQuery }, async ({ site, caller, params, query }) => {
  const page = await listIdeaArguments(site, caller, params.ideaId, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
