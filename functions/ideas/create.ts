import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createIdea } from '#lib/ideas/service';
import { siteParams } from '#schemas/common';
import { jsonObjectBody } from '#schemas/content-item';

// The body is checked in the domain, after access, against the site's limits and extraData rules.
export const handler = apiHandler({ params: siteParams, body: jsonObjectBody }, async ({ site, caller, body }) =>
  created(await createIdea(site, caller, body)),
);
