import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteArgument } from '#lib/arguments/service';
import { argumentParams } from '#schemas/argument';

export const handler = apiHandler({ params: argumentParams }, async ({ site, caller, params }) => {
  await deleteArgument(site, caller, params.ideaId, params.argumentId);
  return deleted(params.argumentId);
});
