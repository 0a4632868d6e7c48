import { apiHandler } from '#lib/http/handler';
import { tagDelete } from '#lib/routes/tags/delete';
import { deleted } from '#lib/http/response';
import { deleteTag } from '#lib/tags/service';

export const handler = apiHandler(tagDelete, async ({ site, caller, params }) => {
  await deleteTag(site, caller, params.tagId);
  return deleted(params.tagId);
});
