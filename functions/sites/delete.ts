import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteSite } from '#lib/sites/service';
import { siteParams } from '#schemas/common';

export const handler = apiHandler({ params: siteParams }, async ({ site, caller }) => {
  await deleteSite(caller, site);
  return deleted(site.id);
});
