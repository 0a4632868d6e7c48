import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateSite } from '#lib/sites/service';
import * as access from '#lib/auth/access';
import { siteParams } from '#schemas/common';
import { updateSiteBody } from '#schemas/site';

export const handler = apiHandler(
  { params: siteParams, body: updateSiteBody, authorize: (caller, site) => access.site.manage(caller, site!.id) },
  async ({ site, caller, body }) => ok(await updateSite(caller, site, body)),
);
