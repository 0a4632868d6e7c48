import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteSite } from '#lib/sites/service';
import { siteParams } from '#schemas/common';
import { deleteSiteQuery } from '#schemas/site';

export const handler = apiHandler({ params: siteParams, query: deleteSiteQuery }, async ({ site, caller, query }) => {
  await deleteSite(caller, site, { force: query.force });
  return deleted(site.id);
});
