/**
 * The discovery filters of a list request, as one value: what the driving index reads
 * (lib/discovery/list.ts) and the exact check every candidate idea must pass in memory.
 */
import { createHash } from 'node:crypto';
import { validationError } from '#lib/errors';
import type { ContentItem } from '#lib/store/content/content-items';
import { circleBbox, distanceMeters, inBbox, type Bbox, type LatLng } from '#lib/discovery/geo';
import { wordsOfIdea } from '#lib/discovery/index-spec';
import { matchesAllTerms, wordsOf } from '#lib/discovery/words';
import { runningStatuses, type ContentStatus } from '#schemas/content-item';
import { MAX_SEARCH_TERMS } from '#schemas/discovery';

export interface DiscoveryFilters {
  tags?: number[] | undefined;
  statuses?: ContentStatus[] | undefined;
  /** Normalised search words; each must start some word of the idea. */
  terms?: string[] | undefined;
  bbox?: Bbox | undefined;
  near?: { centre: LatLng; radius: number } | undefined;
  /** Only ideas with a location (markers). */
  located?: boolean;
  /** `selectRunning`. */
  running?: boolean;
}

interface DiscoveryQuery {
  tags?: number[] | undefined;
  status?: ContentStatus[] | undefined;
  search?: string | undefined;
  bbox?: Bbox | undefined;
  near?: LatLng | undefined;
  radius?: number | undefined;
  selectRunning?: boolean;
}

export function filtersOf(query: DiscoveryQuery, options: { located: boolean }): DiscoveryFilters {
  let terms: string[] | undefined;
  if (query.search !== undefined) {
    terms = wordsOf(query.search);
    if (terms.length === 0) throw validationError([{ path: 'search', message: 'must contain a letter or a digit' }]);
    if (terms.length > MAX_SEARCH_TERMS) throw validationError([{ path: 'search', message: `at most ${MAX_SEARCH_TERMS} words` }]);
  }
  return {
    tags: query.tags,
    statuses: query.status,
    terms,
    bbox: query.bbox,
    near: query.near && query.radius !== undefined ? { centre: query.near, radius: query.radius } : undefined,
    located: options.located,
    running: query.selectRunning === true,
  };
}

/** Whether anything but the plain creation or vote order is asked for. */
export const needsDiscovery = (f: DiscoveryFilters): boolean =>
  f.tags !== undefined || f.statuses !== undefined || f.terms !== undefined || f.bbox !== undefined || f.near !== undefined || f.located === true;

/** Whether a point passes the location filters (used on index hits before any idea is read). */
export function placeMatches(f: DiscoveryFilters, point: LatLng): boolean {
  if (f.bbox && !inBbox(point, f.bbox)) return false;
  if (f.near && distanceMeters(f.near.centre, point) > f.near.radius) return false;
  return true;
}

/** The exact check of one idea against every filter (the index only narrows the candidates). */
export function ideaMatches(f: DiscoveryFilters): (item: ContentItem) => boolean {
  const running = new Set<string>(runningStatuses);
  const tags = f.tags ? new Set(f.tags) : undefined;
  return (item) => {
    if (f.running && !running.has(item.status)) return false;
    if (f.statuses && !f.statuses.includes(item.status)) return false;
    if (tags && !(item.tags ?? []).some((t) => tags.has(t))) return false;
    if (f.located || f.bbox || f.near) {
      if (!item.location || !placeMatches(f, item.location)) return false;
    }
    if (f.terms && !matchesAllTerms(wordsOfIdea(item), f.terms)) return false;
    return true;
  };
}

/** The box the location filters allow (the circle's box, cut by `bbox`), if any. */
export function searchBox(f: DiscoveryFilters): Bbox | undefined {
  const circle = f.near ? circleBbox(f.near.centre, f.near.radius) : undefined;
  if (!circle) return f.bbox;
  if (!f.bbox) return circle;
  return {
    minLat: Math.max(circle.minLat, f.bbox.minLat),
    minLng: Math.max(circle.minLng, f.bbox.minLng),
    maxLat: Math.min(circle.maxLat, f.bbox.maxLat),
    maxLng: Math.min(circle.maxLng, f.bbox.maxLng),
  };
}

/**
 * The list and its exact query, hashed: a cursor carries it, so a cursor only continues the same
 * list with the same filters and sort (CONTRACT: a cursor of another list or query is a 400).
 */
export function bindingOf(list: string, f: DiscoveryFilters, sort: string): string {
  const canonical = JSON.stringify([
    list,
    sort,
    f.tags ? [...f.tags].sort((a, b) => a - b) : null,
    f.statuses ? [...f.statuses].sort() : null,
    f.terms ? [...f.terms].sort() : null,
    f.bbox ?? null,
    f.near ?? null,
    f.located === true,
    f.running === true,
  ]);
  return `${list}.${createHash('sha256').update(canonical).digest('base64url').slice(0, 22)}`;
}
