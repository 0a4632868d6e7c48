import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { toSiteRecord } from '#lib/sites/service';
import { siteParams } from '#schemas/common';

export const handler = apiHandler({ params: siteParams }, async ({ site, caller }) => ok(toSiteRecord(site, caller)));
