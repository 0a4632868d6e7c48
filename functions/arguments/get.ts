import { apiHandler } from '#lib/http/handler';
import { argumentReads } from '#lib/arguments/read-plans';
import { argumentGet } from '#lib/routes/arguments/get';
import { ok } from '#lib/http/response';
import { getArgument } from '#lib/arguments/service';

export const handler = apiHandler({ ...argumentGet, prefetch: argumentReads }, async ({ site, caller, params, query }) =>
  ok(await getArgument(site, caller, params.ideaId, params.argumentId, query)),
);
