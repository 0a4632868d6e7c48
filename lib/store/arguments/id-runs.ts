/**
 * Ids grouped into runs of nearby ids, so the records stored under them (arguments sort under their
 * idea: `ARG#<idea>#<argument>`) are read with one range Query per run, the runs in parallel (at most
 * the client's 50 sockets at once).
 *
 * Why a gap bound: a range Query reads everything between its ends, so one range over a scattered
 * page (ideas ordered by votes on a large site) reads the arguments of thousands of ideas it does not
 * show, while one Query per id costs a request (at least 0.5 read units on DynamoDB) per idea. Ids are
 * unique across all sites (lib/store/db/ids.ts), so the ids in a gap are at most that many ideas of
 * the site; only those (skipped by a filter or the vote order) are read and dropped. Gaps up to
 * `MAX_GAP_IDS` stay inside a run, larger ones start a new one. Ideas created in one block (a seed, a
 * bench) have consecutive ids and share a run; ideas created by separate requests are milliseconds,
 * so thousands of ids, apart (a timed id holds 2,048 per millisecond) and take one Query each. So a page reads what it shows plus the arguments of its site's ideas within
 * that many ids of its own, and makes at most one Query per idea it shows: bounded by the page, never
 * by the site. Runs are never joined past a count: that would read whole stretches of the site.
 */

/** The widest gap (ids between two wanted ids) that one run spans rather than starting another. */
export const MAX_GAP_IDS = 8;

interface IdRun {
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
