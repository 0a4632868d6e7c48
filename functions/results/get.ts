import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { siteResults } from '#lib/results/service';
import { siteParams } from '#schemas/common';

export const handler = apiHandler({ params: siteParams }, async ({ site, caller }) => ok(await siteResults(site, caller)));
