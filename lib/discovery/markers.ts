/**
 * `GET /api/site/:SITE_ID/idea-marker`: the light records a map needs, for the ideas that have a
 * location, with the same filters as the idea list (lib/discovery/list.ts; without other filters
 * the "has a location" stream drives).
 */
import { fitPage } from '#lib/content/page-budget';
import type { Site } from '#lib/sites/site';
import { filtersOf } from '#lib/discovery/filters';
import { isVotesSort, listDiscovered } from '#lib/discovery/list';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { ListMarkersQuery, MarkerRecord } from '#schemas/discovery';

export async function listMarkers(site: Site, caller: Caller, query: ListMarkersQuery): Promise<{ records: MarkerRecord[]; nextCursor: string | null }> {
  if (isVotesSort(query.sort)) access.vote.sortByCounts(caller, site.config);
  const filters = filtersOf(query, { located: true });
  const page = await listDiscovered(site.id, 'idea-marker', filters, query.sort, { pageSize: query.pageSize, cursor: query.cursor });
  const records = page.items.map((item) => ({
    id: item.id,
    title: item.title,
    status: item.status,
    location: item.location!,
    tags: item.tags ?? [],
  }));
  return fitPage(records, page);
}
