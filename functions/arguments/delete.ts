import { apiHandler } from '#lib/http/handler';
import { argumentReads } from '#lib/arguments/read-plans';
import { argumentDelete } from '#lib/routes/arguments/delete';
import { deleted } from '#lib/http/response';
import { deleteArgument } from '#lib/arguments/service';

export const handler = apiHandler({ ...argumentDelete, prefetch: argumentReads }, async ({ site, caller, params }) => {
  await deleteArgument(site, caller, params.ideaId, params.argumentId);
  return deleted(params.argumentId);
});
