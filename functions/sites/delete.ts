import { apiHandler } from '#lib/http/handler';
import { siteDelete } from '#lib/routes/sites/delete';
import { deleted } from '#lib/http/response';
import { deleteSite } from '#lib/site-admin/service';

export const handler = apiHandler(siteDelete, async ({ site, caller, query }) => {
  await deleteSite(caller, site, { force: query.force });
  return deleted(site.id);
});
