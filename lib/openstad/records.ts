/**
 * The main API's records in OpenStad v1's shapes, adding only what OpenStad showed and its clients
 * read: `createDateHumanized`, GeoJSON points (`location`, and `position` as {lat, lng}), tags as
 * objects with their `type`, arguments and their nested `reactions` alike. Nothing is removed, so a
 * record never shows more or less than the main API showed the same caller.
 */
import { humanizeDate } from '#lib/openstad/humanize';

type Rec = Record<string, unknown>;

export interface TagView {
  id: number;
  name: string;
  type: string | null;
}

const isObject = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{lat, lng}` -> `{type: 'Point', coordinates: [lat, lng]}` (OpenStad's order: lat first). */
function geoJsonPoint(location: unknown): { type: 'Point'; coordinates: [number, number] } | null {
  if (!isObject(location) || typeof location['lat'] !== 'number' || typeof location['lng'] !== 'number') return null;
  return { type: 'Point', coordinates: [location['lat'], location['lng']] };
}

/** A tag of the main API (`group`) as OpenStad had it (`type`). */
export const tagView = (tag: Rec): Rec => ({ ...tag, type: tag['group'] ?? null });

export function argumentView(argument: unknown): unknown {
  if (!isObject(argument)) return argument;
  const out: Rec = { ...argument, createDateHumanized: humanizeDate(argument['createdAt']) };
  if (Array.isArray(argument['reactions'])) out['reactions'] = argument['reactions'].map(argumentView);
  return out;
}

/** `tags`: the site's tags by id, to show an idea's tag ids as objects (unknown ids are left out). */
export function ideaView(idea: unknown, tags?: ReadonlyMap<number, TagView>): unknown {
  if (!isObject(idea)) return idea;
  const out: Rec = { ...idea, createDateHumanized: humanizeDate(idea['createdAt']) };
  if ('location' in idea) {
    const point = geoJsonPoint(idea['location']);
    out['location'] = point;
    if (point) out['position'] = { lat: point.coordinates[0], lng: point.coordinates[1] };
  }
  if (typeof idea['publishDate'] === 'string') out['publishDateHumanized'] = humanizeDate(idea['publishDate']);
  if (tags && Array.isArray(idea['tags'])) out['tags'] = idea['tags'].flatMap((id) => (typeof id === 'number' && tags.has(id) ? [tags.get(id)!] : []));
  for (const key of ['argumentsFor', 'argumentsAgainst']) if (Array.isArray(idea[key])) out[key] = (idea[key] as unknown[]).map(argumentView);
  return out;
}

/** Articles have the dates and location of ideas, nothing else of them. */
export const articleView = (article: unknown): unknown => ideaView(article);

/**
 * OpenStad's `checked` on a vote, where the main record shows its voter (moderators; the voter's own):
 * null before any moderator looked at it, false rejected, true reinstated (openstad-api's toggle went
 * null -> false -> true -> false ...).
 */
export function voteView(vote: unknown): unknown {
  if (!isObject(vote) || !('userId' in vote)) return vote;
  return { ...vote, checked: vote['rejected'] === true ? false : typeof vote['reviewedAt'] === 'string' ? true : null };
}

/** The toggle's answer, openstad-api's fields: no IP is kept here (null); votes need no e-mail confirmation here (false, its default). */
export function toggleView(vote: Rec): Rec {
  const shown = voteView(vote) as Rec;
  return { id: shown['id'], ideaId: shown['ideaId'], userId: shown['userId'], confirmed: false, opinion: shown['opinion'], ip: null, createdAt: shown['createdAt'], checked: shown['checked'] };
}
