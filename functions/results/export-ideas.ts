import * as access from '#lib/auth/access';
import { apiHandler } from '#lib/http/handler';
import { exportIdeas as exportIdeasRoute } from '#lib/routes/results/export-ideas';
import { text } from '#lib/http/response';
import { exportIdeas } from '#lib/results/export';
import { nextLink } from '#lib/results/link';

export const handler = apiHandler(
  { ...exportIdeasRoute, authorize: (caller, site) => access.results.export(caller, site!.id) },
  async ({ site, caller, query }) => {
    const page = await exportIdeas(site, caller, query);
    return text(page.text, page.contentType, nextLink(`/api/site/${site.id}/export/ideas`, page.next));
  },
);
