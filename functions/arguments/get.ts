import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { getArgument } from '#lib/arguments/service';
import { argumentFlagsQuery, argumentParams } from '#schemas/argument';

export const handler = apiHandler({ params: argumentParams, query: argumentFlagsQuery }, async ({ site, caller, params, query }) =>
  ok(await getArgument(site, caller, params.ideaId, params.argumentId, query)),
);
