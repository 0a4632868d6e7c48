import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { ownRecord } from '#lib/users/service';
import { siteParams } from '#schemas/common';

export const handler = apiHandler({ params: siteParams }, async ({ site, caller }) => ok(ownRecord(site, caller)));
