import { apiHandler } from '#lib/http/handler';
import { argumentReads } from '#lib/arguments/read-plans';
import { argumentUpdate } from '#lib/routes/arguments/update';
import { ok } from '#lib/http/response';
import { updateArgument } from '#lib/arguments/service';

export const handler = apiHandler({ ...argumentUpdate, prefetch: argumentReads }, async ({ site, caller, params, body }) =>
  ok(await updateArgument(site, caller, params.ideaId, params.argumentId, body)),
);
