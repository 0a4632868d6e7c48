import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateTag } from '#lib/tags/service';
import { tagParams, updateTagBody } from '#schemas/tag';

export const handler = apiHandler({ params: tagParams, body: updateTagBody }, async ({ site, caller, params, body }) =>
  ok(await updateTag(site, caller, params.tagId, body)),
);
