import { apiHandler } from '#lib/http/handler';
import { siteGet } from '#lib/routes/sites/get';
import { ok } from '#lib/http/response';
import { toSiteRecord } from '#lib/site-admin/service';

export const handler = apiHandler(siteGet, async ({ site, caller }) => ok(toSiteRecord(site, caller)));
