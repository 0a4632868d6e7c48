import { describe, expect, it } from 'vitest';
import { idRuns, MAX_GAP_IDS } from '#lib/store/arguments/id-runs';

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

  it('covers every id with a run and no run holds a gap wider than asked', () => {
    const ids = Array.from({ length: 200 }, (_, i) => (i * 7919) % 10007);
    for (const gap of [0, 3, 8, 50]) {
      const runs = idRuns(ids, gap);
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

  it('never joins far-apart ids, however many: a page of 500 scattered ideas is 500 runs of one', () => {
    const scattered = Array.from({ length: 500 }, (_, i) => i * 100 + (i % 7) * 13);
    expect(idRuns(scattered)).toEqual(scattered.map((id) => ({ from: id, to: id })));
  });
});
