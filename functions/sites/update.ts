import { apiHandler } from '#lib/http/handler';
import { siteUpdate } from '#lib/routes/sites/update';
import { ok } from '#lib/http/response';
import { updateSite } from '#lib/site-admin/service';
import * as access from '#lib/auth/access';

export const handler = apiHandler(
  { ...siteUpdate, authorize: (caller, site) => access.site.manage(caller, site!.id) },
  async ({ site, caller, body }) => ok(await updateSite(caller, site, body)),
);
