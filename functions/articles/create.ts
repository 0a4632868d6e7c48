import { apiHandler } from '#lib/http/handler';
import { articleCreate } from '#lib/routes/articles/create';
import { created } from '#lib/http/response';
import { createArticle } from '#lib/articles/service';

// The body is checked in the domain, after access, against the site's limits and extraData rules.
export const handler = apiHandler(articleCreate, async ({ site, caller, body }) =>
  created(await createArticle(site, caller, body)),
);
