import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { getIdeaRecord } from '#lib/ideas/service';
import { ideaReads } from '#lib/ideas/read-plans';
import { ideaIncludeQuery, ideaParams } from '#schemas/idea';

export const handler = apiHandler({ params: ideaParams, query: ideaIncludeQuery, prefetch: ideaReads }, async ({ site, caller, params, query }) =>
  ok(await getIdeaRecord(site, caller, params.ideaId, query)),
);
