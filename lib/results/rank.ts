/**
 * The ranking of `GET /results` for every vote type (CONTRACT "Decided details, results and exports"):
 * ideas by `yes` votes, most first, ties listed by id ascending.
 *
 * Ranks are competition ranks ("1224"): an idea's rank is 1 + the number of ideas with strictly more
 * `yes` votes. Tied ideas share a rank and the next idea's rank still says how many ideas beat it, which
 * is what an announcement of results means by "came fourth". Dense ranks ("1223") would tell the fourth
 * idea of [10, 9, 9, 8] it came third. The id order inside a tie is for a stable list only; it is not a
 * rank difference.
 */
import type { Tally } from '#lib/votes/types';

interface RankableIdea {
  id: number;
  title: string;
}

export interface RankedIdea {
  id: number;
  title: string;
  yes: number;
  no: number;
  rank: number;
}

/** Ranks `ideas` (every idea of the site, or of one theme) by their counts in `tally`; missing is 0. */
export function rankIdeas(ideas: readonly RankableIdea[], tally: Tally): RankedIdea[] {
  const rows = ideas
    .map(({ id, title }) => {
      const counts = tally.get(id);
      return { id, title, yes: counts?.yes ?? 0, no: counts?.no ?? 0 };
    })
    .sort((a, b) => b.yes - a.yes || a.id - b.id);
  let rank = 0;
  return rows.map((row, index) => {
    if (index === 0 || row.yes !== rows[index - 1]!.yes) rank = index + 1;
    return { ...row, rank };
  });
}
