import { apiHandler } from '#lib/http/handler';
import { argumentGet } from '#lib/routes/arguments/get';
import { ok } from '#lib/http/response';
import { getArgument } from '#lib/arguments/service';

export const handler = apiHandler(argumentGet, async ({ site, caller, params, query }) =>
  ok(await getArgument(site, caller, params.ideaId, params.argumentId, query)),
);
