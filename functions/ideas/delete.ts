import { apiHandler } from '#lib/http/handler';
import { ideaDelete } from '#lib/routes/ideas/delete';
import { deleted } from '#lib/http/response';
import { deleteIdea } from '#lib/ideas/service';

export const handler = apiHandler(ideaDelete, async ({ site, caller, params }) => {
  await deleteIdea(site, caller, params.ideaId);
  return deleted(params.ideaId);
});
