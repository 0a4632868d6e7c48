/**
 * Geohash cells and distances for the location filters. A geohash cell is a rectangle whose code
 * is a prefix of the codes of every cell inside it; an idea's location is stored under its cell at
 * each precision 0..MAX_PRECISION (lib/store/ideas/index-items.ts), so a bbox or circle is served by
 * Querying the few cells of one precision that cover it (at most MAX_CELLS), never the whole site.
 * (The encoder is the standard one, a dozen lines; no dependency needed.)
 */

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';
/** Precision 7 cells are about 153 m x 153 m: fine enough for a street, the finest we store. */
export const MAX_PRECISION = 7;
/** A query reads at most this many cells (one Query each, in parallel). */
export const MAX_CELLS = 9;

export interface LatLng {
  lat: number;
  lng: number;
}

export interface Bbox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

export function encodeGeohash(lat: number, lng: number, precision: number): string {
  let latLo = -90, latHi = 90, lngLo = -180, lngHi = 180;
  let out = '';
  let bits = 0, value = 0, even = true;
  while (out.length < precision) {
    if (even) {
      const mid = (lngLo + lngHi) / 2;
      if (lng >= mid) { value = value * 2 + 1; lngLo = mid; } else { value *= 2; lngHi = mid; }
    } else {
      const mid = (latLo + latHi) / 2;
      if (lat >= mid) { value = value * 2 + 1; latLo = mid; } else { value *= 2; latHi = mid; }
    }
    even = !even;
    if (++bits === 5) {
      out += BASE32[value];
      bits = 0;
      value = 0;
    }
  }
  return out;
}

/** Width (longitude) and height (latitude) in degrees of a cell of this precision. */
export function cellSize(precision: number): { dLat: number; dLng: number } {
  const totalBits = precision * 5;
  const lngBits = Math.ceil(totalBits / 2);
  const latBits = Math.floor(totalBits / 2);
  return { dLat: 180 / 2 ** latBits, dLng: 360 / 2 ** lngBits };
}

/** The cells of one precision that cover a box, or undefined when there are more than `max`. */
export function coverBbox(box: Bbox, precision: number, max = MAX_CELLS): string[] | undefined {
  if (precision === 0) return [''];
  const { dLat, dLng } = cellSize(precision);
  const latStart = Math.floor((box.minLat + 90) / dLat);
  const latEnd = Math.min(Math.floor((box.maxLat + 90) / dLat), Math.round(180 / dLat) - 1);
  const lngStart = Math.floor((box.minLng + 180) / dLng);
  const lngEnd = Math.min(Math.floor((box.maxLng + 180) / dLng), Math.round(360 / dLng) - 1);
  const count = (latEnd - latStart + 1) * (lngEnd - lngStart + 1);
  if (count > max) return undefined;
  const cells: string[] = [];
  for (let i = latStart; i <= latEnd; i++) {
    for (let j = lngStart; j <= lngEnd; j++) {
      // The centre of the grid cell encodes to that cell's code.
      cells.push(encodeGeohash(-90 + (i + 0.5) * dLat, -180 + (j + 0.5) * dLng, precision));
    }
  }
  return cells;
}

/** The finest precision whose cover of the box has at most MAX_CELLS cells (0: the one world cell). */
export function bestCover(box: Bbox): { precision: number; cells: string[] } {
  for (let p = MAX_PRECISION; p >= 1; p--) {
    const cells = coverBbox(box, p);
    if (cells) return { precision: p, cells };
  }
  return { precision: 0, cells: [''] };
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A box that holds the circle (clamped at the poles and the antimeridian: a little too big is fine). */
export function circleBbox(centre: LatLng, radiusMeters: number): Bbox {
  const dLat = (radiusMeters / EARTH_RADIUS_M) * (180 / Math.PI);
  const cos = Math.cos(rad(Math.min(89.9, Math.abs(centre.lat) + dLat)));
  const dLng = Math.min(180, dLat / Math.max(cos, 1e-6));
  return {
    minLat: Math.max(-90, centre.lat - dLat),
    maxLat: Math.min(90, centre.lat + dLat),
    minLng: Math.max(-180, centre.lng - dLng),
    maxLng: Math.min(180, centre.lng + dLng),
  };
}

export const inBbox = (p: LatLng, box: Bbox) =>
  p.lat >= box.minLat && p.lat <= box.maxLat && p.lng >= box.minLng && p.lng <= box.maxLng;
