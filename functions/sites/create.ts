import { apiHandler } from '#lib/http/handler';
import { siteCreate } from '#lib/routes/sites/create';
import { created } from '#lib/http/response';
import { createSite } from '#lib/site-admin/service';
import * as access from '#lib/auth/access';

export const handler = apiHandler({ ...siteCreate, authorize: access.site.create }, async ({ body, caller }) => created(await createSite(caller, body)));
