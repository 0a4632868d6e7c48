import { apiHandler } from '#lib/http/handler';
import { ideaCreate } from '#lib/routes/ideas/create';
import { created } from '#lib/http/response';
import { createIdea } from '#lib/ideas/service';

// The body is checked in the domain, after access, against the site's limits and extraData rules.
export const handler = apiHandler(ideaCreate, async ({ site, caller, body }) =>
  created(await createIdea(site, caller, body)),
);
