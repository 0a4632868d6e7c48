import { apiHandler } from '#lib/http/handler';
import { ideaCreate } from '#lib/routes/ideas/create';
import { created } from '#lib/http/response';
import { createIdea } from '#lib/ideas/service';
import { ideaCreateReads } from '#lib/ideas/create-plan';

// The body is checked in the domain, after access, against the site's limits and extraData rules.
export const handler = apiHandler({ ...ideaCreate, prefetch: ideaCreateReads }, async ({ site, caller, body }) =>
  created(await createIdea(site, caller, body)),
);
