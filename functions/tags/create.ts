import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createTag } from '#lib/tags/service';
import { siteParams } from '#schemas/common';
import { createTagBody } from '#schemas/tag';

export const handler = apiHandler({ params: siteParams, body: createTagBody }, async ({ site, caller, body }) =>
  created(await createTag(site, caller, body)),
);
