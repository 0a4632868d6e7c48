/**
 * OpenStad's request bodies onto the main API's: ids as numeric strings (the CMS re-sends HTML form
 * fields as JSON), tags as objects, and locations as GeoJSON points `{type: "Point", coordinates:
 * [lat, lng]}`, also as that JSON in a string (the ideas-on-map form). Only what is unambiguous is
 * converted: `"12"` becomes 12, but `"012"`, `"1e3"`, `"-1"` or an id past the safe integers stays a
 * string, so the main API refuses it (400) exactly as it refuses it there. A location that is not a
 * point, or out of range, reaches the main API as it is and gets its 400.
 */

const ID_FIELDS = ['id', 'ideaId', 'parentId', 'userId', 'tagId', 'budget'] as const;

/** A canonical positive decimal within the safe integers, as a number; anything else unchanged. */
export function numericId(value: unknown): unknown {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value)) return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A GeoJSON point (or its JSON text) as `{lat, lng}`; `{}` and "" as null (as OpenStad read them); else unchanged. */
export function locationFromGeoJson(value: unknown): unknown {
  let location = value;
  if (typeof location === 'string') {
    if (location.trim() === '') return null;
    try {
      location = JSON.parse(location) as unknown;
    } catch {
      return value;
    }
  }
  if (!isObject(location)) return location;
  if (Object.keys(location).length === 0) return null;
  const coordinates = location['coordinates'];
  if (location['type'] === 'Point' && Array.isArray(coordinates) && coordinates.length === 2) {
    return { lat: coordinates[0], lng: coordinates[1] };
  }
  return location;
}

function translateFields(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const field of ID_FIELDS) if (field in out) out[field] = numericId(out[field]);
  if (Array.isArray(out['tags'])) out['tags'] = out['tags'].map((tag: unknown) => numericId(isObject(tag) ? tag['id'] : tag));
  if ('location' in out) out['location'] = locationFromGeoJson(out['location']);
  return out;
}

/** A body the main API can read: each object of it (a vote round is an array of them) translated. */
export function translateBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map((entry) => (isObject(entry) ? translateFields(entry) : entry));
  return isObject(body) ? translateFields(body) : body;
}
