import { apiHandler } from '#lib/http/handler';
import { tagUpdate } from '#lib/routes/tags/update';
import { ok } from '#lib/http/response';
import { updateTag } from '#lib/tags/service';

export const handler = apiHandler(tagUpdate, async ({ site, caller, params, body }) =>
  ok(await updateTag(site, caller, params.tagId, body)),
);
