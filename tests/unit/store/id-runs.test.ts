import { describe, expect, it } from 'vitest';
import { idRuns, MAX_GAP_IDS, MAX_RUNS } from '#lib/store/id-runs';

describe('idRuns: ids grouped for one range Query per run', () => {
  it('gives nothing for no ids', () => {
    expect(idRuns([])).toEqual([]);
  });

  it('keeps neighbouring ids (a page in creation order) in one run, whatever their input order', () => {
    expect(idRuns([5, 3, 4, 1, 2])).toEqual([{ from: 1, to: 5 }]);
  });

  it('spans a gap of exactly MAX_GAP_IDS ids and starts a new run past it', () => {
    const within = 1 + MAX_GAP_IDS + 1; // MAX_GAP_IDS ids lie between 1 and this one
    expect(idRuns([1, within])).toEqual([{ from: 1, to: within }]);
    expect(idRuns([1, within + 1])).toEqual([
      { from: 1, to: 1 },
      { from: within + 1, to: within + 1 },
    ]);
  });

  it('reads a scattered page (ideas ordered by votes on a large site) as one run per far-apart id', () => {
    const ids = [9000, 100, 5000, 101, 2500];
    expect(idRuns(ids)).toEqual([
      { from: 100, to: 101 },
      { from: 2500, to: 2500 },
      { from: 5000, to: 5000 },
      { from: 9000, to: 9000 },
    ]);
  });

  it('ignores duplicates', () => {
    expect(idRuns([7, 7, 7])).toEqual([{ from: 7, to: 7 }]);
  });

  it('without a cap on runs: covers every id and no run holds a gap wider than asked', () => {
    const ids = Array.from({ length: 200 }, (_, i) => (i * 7919) % 10007);
    for (const gap of [0, 3, 8, 50]) {
      const runs = idRuns(ids, gap, Infinity);
      for (const id of ids) expect(runs.some((r) => r.from <= id && id <= r.to)).toBe(true);
      const sorted = [...new Set(ids)].sort((a, b) => a - b);
      for (const run of runs) {
        const inside = sorted.filter((id) => id >= run.from && id <= run.to);
        expect(inside[0]).toBe(run.from);
        expect(inside.at(-1)).toBe(run.to);
        for (let i = 1; i < inside.length; i++) expect(inside[i]! - inside[i - 1]! - 1).toBeLessThanOrEqual(gap);
      }
      for (let i = 1; i < runs.length; i++) expect(runs[i]!.from - runs[i - 1]!.to - 1).toBeGreaterThan(gap);
    }
  });

  it('makes at most MAX_RUNS runs, joining across the narrowest gaps and keeping the widest', () => {
    // 500 far-apart ids (a page of 500 ordered by votes): never more Queries than the client's sockets.
    const scattered = Array.from({ length: 500 }, (_, i) => i * 100 + (i % 7) * 13);
    const runs = idRuns(scattered);
    expect(runs).toHaveLength(MAX_RUNS);
    for (const id of scattered) expect(runs.some((r) => r.from <= id && id <= r.to)).toBe(true);
    // Three clusters far apart, at most two runs: the widest gap stays open.
    expect(idRuns([1, 2, 100, 101, 10_000], MAX_GAP_IDS, 2)).toEqual([
      { from: 1, to: 101 },
      { from: 10_000, to: 10_000 },
    ]);
    expect(idRuns([1, 5000, 5001, 5100], 0, 2)).toEqual([
      { from: 1, to: 1 },
      { from: 5000, to: 5100 },
    ]);
  });
});
