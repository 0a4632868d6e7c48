import { describe, expect, it } from 'vitest';
import { bestCover, cellSize, circleBbox, coverBbox, distanceMeters, encodeGeohash, MAX_CELLS } from '#lib/discovery/geo';

const amsterdam = { lat: 52.3731, lng: 4.8926 };
const utrecht = { lat: 52.0907, lng: 5.1214 };

describe('geohash', () => {
  it('encodes known points', () => {
    // Published reference values.
    expect(encodeGeohash(57.64911, 10.40744, 11)).toBe('u4pruydqqvj');
    expect(encodeGeohash(amsterdam.lat, amsterdam.lng, 6)).toBe('u173zq');
    expect(encodeGeohash(-90, -180, 3)).toBe('000');
    expect(encodeGeohash(0, 0, 0)).toBe('');
  });

  it('cell sizes halve per bit', () => {
    expect(cellSize(1)).toEqual({ dLat: 45, dLng: 45 });
    expect(cellSize(2)).toEqual({ dLat: 5.625, dLng: 11.25 });
  });

  it('the cells covering a box include the cell of every point inside it', () => {
    const box = { minLat: 52.3, minLng: 4.8, maxLat: 52.4, maxLng: 5.0 };
    const { precision, cells } = bestCover(box);
    expect(cells.length).toBeLessThanOrEqual(MAX_CELLS);
    for (let i = 0; i <= 10; i++) {
      for (let j = 0; j <= 10; j++) {
        const lat = box.minLat + (i / 10) * (box.maxLat - box.minLat);
        const lng = box.minLng + (j / 10) * (box.maxLng - box.minLng);
        expect(cells).toContain(encodeGeohash(lat, lng, precision));
      }
    }
  });

  it('a box of the whole world falls back to the one cell of precision 0', () => {
    expect(bestCover({ minLat: -90, minLng: -180, maxLat: 90, maxLng: 180 })).toEqual({ precision: 0, cells: [''] });
    expect(coverBbox({ minLat: -90, minLng: -180, maxLat: 90, maxLng: 180 }, 1, 32)).toHaveLength(32);
  });

  it('a box on the edge of the world stays inside it', () => {
    const { cells, precision } = bestCover({ minLat: 89.99, minLng: 179.99, maxLat: 90, maxLng: 180 });
    expect(cells).toContain(encodeGeohash(90, 180, precision));
    expect(cells).toContain(encodeGeohash(89.99, 179.99, precision));
    expect(cells.every((cell) => cell.length === precision && /^[0-9b-hjkmnp-z]+$/.test(cell))).toBe(true);
  });

  it('distances in metres', () => {
    expect(distanceMeters(amsterdam, amsterdam)).toBe(0);
    expect(Math.round(distanceMeters(amsterdam, utrecht) / 1000)).toBe(35);
  });

  it('the box of a circle holds the circle', () => {
    const box = circleBbox(amsterdam, 1000);
    expect(distanceMeters(amsterdam, { lat: box.maxLat, lng: amsterdam.lng })).toBeGreaterThanOrEqual(999);
    expect(distanceMeters(amsterdam, { lat: amsterdam.lat, lng: box.maxLng })).toBeGreaterThanOrEqual(999);
  });
});
