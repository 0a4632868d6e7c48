import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createSite } from '#lib/sites/service';
import * as access from '#lib/auth/access';
import { createSiteBody } from '#schemas/site';

export const handler = apiHandler({ body: createSiteBody, authorize: access.site.create }, async ({ body, caller }) => created(await createSite(caller, body)));
