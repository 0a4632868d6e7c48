/**
 * Ids grouped into runs of nearby ids, so the records stored under them (arguments sort under their
 * idea: `ARG#<idea>#<argument>`) are read with one range Query per run, the runs in parallel.
 *
 * Why a gap bound: a range Query reads everything between its ends, so one range over a scattered
 * page (ideas ordered by votes on a large site) reads the arguments of thousands of ideas it does not
 * show, while one Query per id costs a request (at least 0.5 read units on DynamoDB) per idea. Spanning
 * a gap of a few ids costs about as much as a request (a few arguments of ~300 bytes are a fraction of
 * a 4 KB read unit each), so gaps up to `MAX_GAP_IDS` stay inside a run and larger ones start a new
 * one. A page in creation order is one run; a scattered page at most one run per id, and at most
 * `MAX_RUNS` in all (the client's socket pool): past that the runs closest to each other are joined,
 * so a page of 500 costs 50 requests, not 500.
 */

/** The widest gap (ids between two wanted ids) that one run spans rather than starting another. */
export const MAX_GAP_IDS = 8;

/** The most runs (parallel Queries) one read makes: the DynamoDB client's sockets (lib/store/client.ts). */
export const MAX_RUNS = 50;

export interface IdRun {
  from: number;
  to: number;
}

/** Runs covering every id, in ascending order; duplicates and order of the input do not matter. */
export function idRuns(ids: Iterable<number>, maxGap = MAX_GAP_IDS, maxRuns = MAX_RUNS): IdRun[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const runs: IdRun[] = [];
  for (const id of sorted) {
    const last = runs.at(-1);
    if (last && id - last.to - 1 <= maxGap) last.to = id;
    else runs.push({ from: id, to: id });
  }
  if (runs.length <= maxRuns) return runs;
  // Too many: keep only the widest gaps between runs (ties: the later one), join across the others.
  const gaps = runs.slice(1).map((run, i) => ({ after: i, width: run.from - runs[i]!.to }));
  const kept = new Set(
    gaps
      .sort((a, b) => b.width - a.width || b.after - a.after)
      .slice(0, Math.max(0, maxRuns - 1))
      .map((gap) => gap.after),
  );
  const joined: IdRun[] = [{ ...runs[0]! }];
  for (let i = 1; i < runs.length; i++) {
    if (kept.has(i - 1)) joined.push({ ...runs[i]! });
    else joined.at(-1)!.to = runs[i]!.to;
  }
  return joined;
}
