import * as access from '#lib/auth/access';
import { apiHandler } from '#lib/http/handler';
import { exportVotes as exportVotesRoute } from '#lib/routes/results/export-votes';
import { text } from '#lib/http/response';
import { exportVotes } from '#lib/results/export';
import { nextLink } from '#lib/results/link';

export const handler = apiHandler(
  { ...exportVotesRoute, authorize: (caller, site) => access.results.export(caller, site!.id) },
  async ({ site, caller, query }) => {
    const page = await exportVotes(site, caller, query);
    return text(page.text, page.contentType, nextLink(`/api/site/${site.id}/export/votes`, page.next));
  },
);
