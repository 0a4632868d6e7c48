import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateSite } from '#lib/sites/service';
import { siteParams } from '#schemas/common';
import { updateSiteBody } from '#schemas/site';

export const handler = apiHandler({ params: siteParams, body: updateSiteBody }, async ({ site, caller, body }) =>
  ok(await updateSite(caller, site, body)),
);
