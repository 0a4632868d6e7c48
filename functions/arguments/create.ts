import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createArgument } from '#lib/arguments/service';
import { createArgumentBody, ideaArgumentsParams } from '#schemas/argument';

export const handler = apiHandler({ params: ideaArgumentsParams, body: createArgumentBody }, async ({ site, caller, params, body }) =>
  created(await createArgument(site, caller, params.ideaId, body)),
);
