import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listMarkers } from '#lib/discovery/markers';
import { siteParams } from '#schemas/common';
import { listMarkersQuery } from '#schemas/discovery';

export const handler = apiHandler({ params: siteParams, query: listMarkersQuery }, async ({ site, query }) => {
  const page = await listMarkers(site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
