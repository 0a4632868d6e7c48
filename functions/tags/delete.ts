import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteTag } from '#lib/tags/service';
import { tagParams } from '#schemas/tag';

export const handler = apiHandler({ params: tagParams }, async ({ site, caller, params }) => {
  await deleteTag(site, caller, params.tagId);
  return deleted(params.tagId);
});
