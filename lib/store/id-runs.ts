/**
 * Ids grouped into runs of nearby ids, so the records stored under them (arguments sort under their
 * idea: `ARG#<idea>#<argument>`) are read with one range Query per run, the runs in parallel.
 *
 * Why a gap bound: a range Query reads everything between its ends, so one range over a scattered
 * page (ideas ordered by votes on a large site) reads the arguments of thousands of ideas it does not
 * show, while one Query per id costs a request (at least 0.5 read units on DynamoDB) per idea. Spanning
 * a gap of a few ids costs about as much as a request (a few arguments of ~300 bytes are a fraction of
 * a 4 KB read unit each), so gaps up to `MAX_GAP_IDS` stay inside a run and larger ones start a new
 * one. A page in creation order is one run; a scattered page at most one run per id. Measured in
 * docs/benchmarks.md ("Arguments of a scattered page").
 */

/** The widest gap (ids between two wanted ids) that one run spans rather than starting another. */
export const MAX_GAP_IDS = 8;

export interface IdRun {
  from: number;
  to: number;
}

/** Runs covering every id, in ascending order; duplicates and order of the input do not matter. */
export function idRuns(ids: Iterable<number>, maxGap = MAX_GAP_IDS): IdRun[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const runs: IdRun[] = [];
  for (const id of sorted) {
    const last = runs.at(-1);
    if (last && id - last.to - 1 <= maxGap) last.to = id;
    else runs.push({ from: id, to: id });
  }
  return runs;
}
