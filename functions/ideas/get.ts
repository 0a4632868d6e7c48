import { apiHandler } from '#lib/http/handler';
import { ideaGet } from '#lib/routes/ideas/get';
import { ok } from '#lib/http/response';
import { getIdeaRecord } from '#lib/ideas/service';

export const handler = apiHandler(ideaGet, async ({ site, caller, params, query }) =>
  ok(await getIdeaRecord(site, caller, params.ideaId, query)),
);
