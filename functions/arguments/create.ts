import { apiHandler } from '#lib/http/handler';
import { argumentCreate } from '#lib/routes/arguments/create';
import { created } from '#lib/http/response';
import { createArgument } from '#lib/arguments/service';
import { argumentCreateReads } from '#lib/arguments/read-plans';

export const handler = apiHandler({ ...argumentCreate, prefetch: argumentCreateReads }, async ({ site, caller, params, body }) =>
  created(await createArgument(site, caller, params.ideaId, body)),
);
