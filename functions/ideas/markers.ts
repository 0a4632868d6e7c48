import { apiHandler } from '#lib/http/handler';
import { ideaMarkerList } from '#lib/routes/ideas/markers';
import { list } from '#lib/http/response';
import { listMarkers } from '#lib/discovery/markers';

export const handler = apiHandler(ideaMarkerList, async ({ site, caller, query }) => {
  const page = await listMarkers(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
