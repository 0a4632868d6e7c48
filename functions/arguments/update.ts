import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateArgument } from '#lib/arguments/service';
import { argumentParams, updateArgumentBody } from '#schemas/argument';

export const handler = apiHandler({ params: argumentParams, body: updateArgumentBody }, async ({ site, caller, params, body }) =>
  ok(await updateArgument(site, caller, params.ideaId, params.argumentId, body)),
);
