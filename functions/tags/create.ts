import { apiHandler } from '#lib/http/handler';
import { tagCreate } from '#lib/routes/tags/create';
import { created } from '#lib/http/response';
import { createTag } from '#lib/tags/service';

export const handler = apiHandler(tagCreate, async ({ site, caller, body }) =>
  created(await createTag(site, caller, body)),
);
