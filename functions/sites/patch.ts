import { apiHandler } from '#lib/http/handler';
import { sitePatch } from '#lib/routes/sites/patch';
import { ok } from '#lib/http/response';
import { patchSite } from '#lib/site-admin/service';
import * as access from '#lib/auth/access';

export const handler = apiHandler(
  { ...sitePatch, authorize: (caller, site) => access.site.manage(caller, site!.id) },
  async ({ site, caller, body }) => ok(await patchSite(caller, site, body)),
);
