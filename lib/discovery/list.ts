/**
 * Filtered pages of ideas, served by keys (docs/data-model.md "Discovery").
 *
 * Every index stream (lib/store/ideas/index-items.ts) is in idea id order, which is creation order. One
 * filter DRIVES the page: its streams are Queried (in parallel, at most `pageSize` entries each,
 * from the cursor on) and merged by id; the candidates are read with one BatchGet and every filter
 * is checked on the idea itself. The driver, most selective first: `search` (the stream of the
 * longest word's first 3 letters), then `near`/`bbox` (the geohash cells covering the area, at most
 * 9), then `tags` (one stream per tag, at most 20), then `status` (one per status), then "has a
 * location" (markers). So a page costs the same few requests whatever the site's size, and reads at
 * most `pageSize` candidates per stream; a page may hold fewer records than `pageSize` (the other
 * filters drop some), and `nextCursor` continues after the last candidate read.
 *
 * `votes_*` orders by the tallies (read whole, as without filters) and checks the filters on each
 * slice of `pageSize`; `sort=distance` reads the place entries of widening rings (see byDistance).
 */
import type { ContentItem, ContentPage } from '#lib/store/content/content-items';
import { getIdeas, listIdeasByVotes } from '#lib/store/ideas/ideas';
import {
  decodeListCursor,
  encodeListCursor,
  queryStream,
  readStream,
  type IndexHit,
  type IndexStream,
  type ListPosition,
} from '#lib/store/ideas/index-items';
import type { PageRequest } from '#lib/store/db/query';
import type { Tally } from '#lib/store/ideas/tallies';
import { bestCover, distanceMeters } from '#lib/discovery/geo';
import { bindingOf, ideaMatches, placeMatches, searchBox, type DiscoveryFilters } from '#lib/discovery/filters';
import { lookupPrefix } from '#lib/discovery/words';
import { contentStatuses } from '#schemas/content-item';

type DiscoverySort = 'createdate_desc' | 'createdate_asc' | 'votes_desc' | 'votes_asc' | 'distance';

/** The orders by the tallies: they show a ranking, so only callers who see the counts may ask (lib/auth/access.ts). */
export const isVotesSort = (sort: string | undefined): sort is 'votes_desc' | 'votes_asc' => sort === 'votes_desc' || sort === 'votes_asc';

interface DiscoveredPage extends ContentPage {
  tallies?: Map<number, Tally>;
}

/** The streams of the driving filter (see above); undefined: nothing to drive with. */
function drivingStreams(f: DiscoveryFilters): IndexStream[] | undefined {
  if (f.terms && f.terms.length > 0) {
    const longest = [...f.terms].sort((a, b) => [...b].length - [...a].length)[0]!;
    return [{ kind: 'word', prefix: lookupPrefix(longest) }];
  }
  const box = searchBox(f);
  if (box) {
    // An empty intersection (bbox beside the circle) matches nothing.
    if (box.minLat > box.maxLat || box.minLng > box.maxLng) return [];
    const { precision, cells } = bestCover(box);
    return cells.map((cell) => ({ kind: 'geo', precision, cell }));
  }
  if (f.tags) return f.tags.map((tag) => ({ kind: 'tag', tag }));
  if (f.statuses) return f.statuses.map((status) => ({ kind: 'status', status }));
  if (f.located) return [{ kind: 'geo', precision: 0, cell: '' }];
  return undefined;
}

export async function listDiscovered(
  siteId: number,
  list: string,
  f: DiscoveryFilters,
  sort: DiscoverySort,
  page: PageRequest,
): Promise<DiscoveredPage> {
  const binding = bindingOf(list, f, sort);
  const keep = ideaMatches(f);
  if (isVotesSort(sort)) {
    return listIdeasByVotes(siteId, { mostFirst: sort === 'votes_desc', keep, binding }, page);
  }
  if (sort === 'distance') return byDistance(siteId, f, binding, keep, page);
  // Nothing to drive with: every status stream together holds every idea.
  const streams = drivingStreams(f) ?? contentStatuses.map((status): IndexStream => ({ kind: 'status', status }));
  return byId(siteId, streams, f, binding, keep, sort === 'createdate_asc', page);
}

async function byId(
  siteId: number,
  streams: IndexStream[],
  f: DiscoveryFilters,
  binding: string,
  keep: (item: ContentItem) => boolean,
  forward: boolean,
  page: PageRequest,
): Promise<DiscoveredPage> {
  const after = decodeListCursor(page.cursor, siteId, binding, false)?.id;
  const limit = page.pageSize;
  const results = await Promise.all(streams.map((stream) => queryStream(siteId, stream, { after, forward, limit })));
  // A stream that has more may still hold ids before another stream's last one: the merged order is
  // only certain up to the nearest last id among the streams that have more.
  let boundary: number | undefined;
  for (const r of results) {
    if (!r.more || r.hits.length === 0) continue;
    const last = r.hits[r.hits.length - 1]!.id;
    boundary = boundary === undefined ? last : forward ? Math.min(boundary, last) : Math.max(boundary, last);
  }
  const before = (a: number, b: number) => (forward ? a - b : b - a);
  const hits = new Map<number, IndexHit>();
  for (const r of results) for (const hit of r.hits) hits.set(hit.id, hit);
  const ordered = [...hits.keys()].filter((id) => boundary === undefined || before(id, boundary) <= 0).sort(before);
  const candidates = ordered.slice(0, limit);
  const more = ordered.length > limit || boundary !== undefined;
  // Geo hits carry their point: those outside the area are dropped before any idea is read.
  const worth = candidates.filter((id) => {
    const hit = hits.get(id)!;
    return hit.lat === undefined || placeMatches(f, { lat: hit.lat, lng: hit.lng! });
  });
  const found = await getIdeas(siteId, worth);
  const items = worth.map((id) => found.get(id)).filter((item): item is ContentItem => item !== undefined && keep(item));
  const last = candidates[candidates.length - 1];
  return {
    items,
    nextCursor: more && last !== undefined ? encodeListCursor(siteId, binding, { id: last }) : null,
    cursorAfter: (item) => encodeListCursor(siteId, binding, { id: item.id }),
  };
}

/** `sort=distance` reads rings of reach radius/16, radius/4, radius (beyond the cursor's distance). */
const RING_GROWTH = 4;
const RINGS = 3;

/**
 * A page nearest first. Every idea within a reach is among the place entries of the cells covering
 * that reach's circle, so once a ring holds more than a page, the page's order is exact; a sparse
 * area widens the ring (at most RINGS rounds of at most 9 cell Queries), a dense one stops at the first.
 */
async function byDistance(
  siteId: number,
  f: DiscoveryFilters,
  binding: string,
  keep: (item: ContentItem) => boolean,
  page: PageRequest,
): Promise<DiscoveredPage> {
  const after = decodeListCursor(page.cursor, siteId, binding, true) as Required<ListPosition> | undefined;
  const { centre, radius } = f.near!;
  const compare = (a: Required<ListPosition>, b: Required<ListPosition>) => a.d - b.d || a.id - b.id;
  const from = after?.d ?? 0;
  let reach = Math.min(radius, from + radius / RING_GROWTH ** (RINGS - 1));
  for (;;) {
    const ring: DiscoveryFilters = { ...f, terms: undefined, tags: undefined, statuses: undefined, near: { centre, radius: reach } };
    const streams = drivingStreams(ring) ?? [];
    const hits = (await Promise.all(streams.map((stream) => readStream(siteId, stream)))).flat();
    const seen = new Set<number>();
    const placed: Required<ListPosition>[] = [];
    for (const hit of hits) {
      if (seen.has(hit.id) || hit.lat === undefined) continue;
      seen.add(hit.id);
      const point = { lat: hit.lat, lng: hit.lng! };
      if (!placeMatches(ring, point)) continue;
      const position = { id: hit.id, d: distanceMeters(centre, point) };
      if (!after || compare(position, after) > 0) placed.push(position);
    }
    if (placed.length <= page.pageSize && reach < radius) {
      reach = Math.min(radius, from + (reach - from) * RING_GROWTH);
      continue;
    }
    placed.sort(compare);
    const slice = placed.slice(0, page.pageSize);
    const found = await getIdeas(siteId, slice.map((p) => p.id));
    const items = slice.map((p) => found.get(p.id)).filter((item): item is ContentItem => item !== undefined && keep(item));
    const distance = new Map(slice.map((p) => [p.id, p.d]));
    const last = slice[slice.length - 1];
    const more = placed.length > page.pageSize || reach < radius;
    return {
      items,
      nextCursor: more && last ? encodeListCursor(siteId, binding, last) : null,
      cursorAfter: (item) => encodeListCursor(siteId, binding, { id: item.id, d: distance.get(item.id) ?? 0 }),
    };
  }
}
