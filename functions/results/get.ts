import { apiHandler } from '#lib/http/handler';
import { resultsGet } from '#lib/routes/results/get';
import { ok } from '#lib/http/response';
import { siteResults } from '#lib/results/service';

export const handler = apiHandler(resultsGet, async ({ site, caller }) => ok(await siteResults(site, caller)));
