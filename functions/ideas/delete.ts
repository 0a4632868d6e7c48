import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteIdea } from '#lib/ideas/service';
import { ideaParams } from '#schemas/idea';

export const handler = apiHandler({ params: ideaParams }, async ({ site, caller, params }) => {
  await deleteIdea(site, caller, params.ideaId);
  return deleted(params.ideaId);
});
