import { apiHandler } from '#lib/http/handler';
import { ideaGet } from '#lib/routes/ideas/get';
import { ok } from '#lib/http/response';
import { getIdeaRecord } from '#lib/ideas/service';
import { ideaReads } from '#lib/ideas/read-plans';

export const handler = apiHandler({ ...ideaGet, prefetch: ideaReads }, async ({ site, caller, params, query }) =>
  ok(await getIdeaRecord(site, caller, params.ideaId, query)),
);
