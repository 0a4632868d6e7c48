/**
 * The discovery filters of the idea list and the idea markers (CONTRACT "Decided details,
 * discovery"), and the idea fields `tags` and `location`. Each filter is a 400 when malformed.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { bodyId, pageQuery, queryFlag } from '#schemas/common';
import { contentStatus, contentStatuses, type ContentStatus } from '#schemas/content-item';

/** At most this many tags on one idea, and in one `tags` filter. */
const MAX_TAGS = 20;
/** At most this many words in one `search`. */
export const MAX_SEARCH_TERMS = 8;
const MAX_RADIUS_METERS = 50_000;

export const location = z.strictObject({
  lat: z.number({ error: 'must be a number' }).check(z.minimum(-90, 'must be between -90 and 90'), z.maximum(90, 'must be between -90 and 90')),
  lng: z.number({ error: 'must be a number' }).check(z.minimum(-180, 'must be between -180 and 180'), z.maximum(180, 'must be between -180 and 180')),
});
export type Location = z.infer<typeof location>;

/** The idea body fields of discovery (owners and moderators set both, on create and update). */
export const ideaDiscoveryFields = z.object({
  tags: z.optional(z.array(bodyId, { error: 'must be an array of tag ids' }).check(z.maxLength(MAX_TAGS, `at most ${MAX_TAGS} tags`))),
  location: z.optional(z.nullable(location)),
});

/**
 * WGS84 degrees as the filters take them: decimal, at most 15 decimals, no leading zeros; latitudes
 * -90..90 and longitudes -180..180, said in the patterns themselves so the document states the range.
 */
const DECIMALS = '(?:\\.[0-9]{1,15})?';
const LAT = `-?(?:90(?:\\.0{1,15})?|[1-8]?[0-9]${DECIMALS})`;
const LNG = `-?(?:180(?:\\.0{1,15})?|(?:1[0-7][0-9]|[1-9]?[0-9])${DECIMALS})`;
const coordinates = (...parts: string[]) => new RegExp(`^${parts.join(',')}$`);
const ID_LIST = new RegExp(`^[1-9][0-9]{0,15}(?:,[1-9][0-9]{0,15}){0,${MAX_TAGS - 1}}$`);
const inLat = (n: number) => n >= -90 && n <= 90;
const inLng = (n: number) => n >= -180 && n <= 180;

export const discoveryQuery = {
  tags: z.optional(
    z
      .pipe(
        z.string().check(z.regex(ID_LIST, `must be 1 to ${MAX_TAGS} tag ids separated by commas`)),
        z.transform((s: string) => [...new Set(s.split(',').map(Number))]),
      )
      .check(z.refine((ids) => ids.every(Number.isSafeInteger), 'must be tag ids')),
  ),
  status: z.optional(
    z.pipe(
      z.pipe(
        z.pipe(
          // The pattern for the OpenAPI document only (an empty or unknown status is a 400 with details below).
          z.string().register(z.globalRegistry, { pattern: `^(?:${contentStatuses.join('|')})(?:,(?:${contentStatuses.join('|')})){0,${contentStatuses.length - 1}}$` }),
          z.transform((s: string) => s.split(',')),
        ),
        z.array(contentStatus).check(z.maxLength(contentStatuses.length)),
      ),
      z.transform((list: ContentStatus[]) => [...new Set(list)] as ContentStatus[]),
    ),
  ),
  search: z.optional(z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters'))),
  bbox: z.optional(
    z.pipe(
      z
        .pipe(
          z.string().check(z.regex(coordinates(LAT, LNG, LAT, LNG), 'must be minLat,minLng,maxLat,maxLng (latitudes in -90..90, longitudes in -180..180)')),
          z.transform((s: string) => s.split(',').map(Number) as [number, number, number, number]),
        )
        .check(
          z.refine(([minLat, minLng, maxLat, maxLng]) => inLat(minLat) && inLat(maxLat) && inLng(minLng) && inLng(maxLng), 'latitudes must be in -90..90, longitudes in -180..180'),
          z.refine(([minLat, minLng, maxLat, maxLng]) => minLat <= maxLat && minLng <= maxLng, 'the minimum must not be above the maximum'),
        ),
      z.transform(([minLat, minLng, maxLat, maxLng]: [number, number, number, number]) => ({ minLat, minLng, maxLat, maxLng })),
    ),
  ),
  near: z.optional(
    z.pipe(
      z
        .pipe(z.string().check(z.regex(coordinates(LAT, LNG), 'must be lat,lng (latitude in -90..90, longitude in -180..180)')), z.transform((s: string) => s.split(',').map(Number) as [number, number]))
        .check(z.refine(([lat, lng]) => inLat(lat) && inLng(lng), 'latitude must be in -90..90, longitude in -180..180')),
      z.transform(([lat, lng]: [number, number]) => ({ lat, lng })),
    ),
  ),
  radius: z.optional(
    z
      .pipe(z.string().check(z.regex(/^[1-9][0-9]{0,4}$/, `must be an integer from 1 to ${MAX_RADIUS_METERS}`)), z.transform(Number))
      .check(z.refine((n) => n <= MAX_RADIUS_METERS, `must be an integer from 1 to ${MAX_RADIUS_METERS}`)),
  ),
};

/** The cross-field rules: `near` and `radius` go together; `sort=distance` needs `near`. */
export function checkDiscoveryQuery(value: { near?: unknown; radius?: unknown; sort?: string }, ctx: z.core.$RefinementCtx): void {
  if ((value.near === undefined) !== (value.radius === undefined)) {
    ctx.addIssue({ code: 'custom', path: [value.near === undefined ? 'near' : 'radius'], message: 'near and radius go together' });
  }
  if (value.sort === 'distance' && value.near === undefined) {
    ctx.addIssue({ code: 'custom', path: ['sort'], message: 'distance needs near and radius' });
  }
}

const markerSorts = ['createdate_desc', 'createdate_asc', 'votes_desc', 'votes_asc', 'distance'] as const;

export const listMarkersQuery = z
  .object({
    ...pageQuery,
    ...discoveryQuery,
    selectRunning: queryFlag,
    sort: z.pipe(z.optional(z.enum(markerSorts, { error: `must be one of ${markerSorts.join(', ')}` })), z.transform((s) => s ?? 'createdate_desc')),
  })
  .check(z.superRefine(checkDiscoveryQuery));
export type ListMarkersQuery = z.infer<typeof listMarkersQuery>;

export const markerRecord = z.object({
  id: z.int(),
  title: z.string(),
  status: contentStatus,
  location,
  tags: z.array(z.int()),
});
export type MarkerRecord = z.infer<typeof markerRecord>;
