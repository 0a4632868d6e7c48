import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createSite } from '#lib/sites/service';
import { createSiteBody } from '#schemas/site';

export const handler = apiHandler({ body: createSiteBody }, async ({ body, caller }) => created(await createSite(caller, body)));
