/**
 * Vote ids without a counter: a site-wide (or global) id counter is one item written by
 * every round, a hot key that caps every site's vote rate. Instead each ballot counts the votes it ever
 * added (`voteSeq`, written with the ballot), and a vote's id is
 *
 *   10^12 + userId * 10^6 + n      (n = 1, 2, ... for the user's n-th vote on the site)
 *
 * unique per site (each user has their own range) and stable, as the `{id}` of a vote record needs.
 * The 10^12 puts every such id above the ids the retired `vote` counter gave (it would have had to
 * pass a trillion votes to reach them), so old and new votes never share an id. A safe integer for any
 * user id below 9,006,199,254; a user can cast 999,999 votes on one site.
 */
import { conflict } from '#lib/errors';

export const VOTES_PER_USER = 1_000_000;
/** Above every id of the retired `vote` counter. */
export const FIRST_COUNTERLESS_VOTE_ID = 1_000_000_000_000;

export const voteIdOf = (userId: number, n: number): number => FIRST_COUNTERLESS_VOTE_ID + userId * VOTES_PER_USER + n;

export function nextVoteIds(userId: number, seq: number | undefined, count: number): { ids: number[]; seq: number } {
  const from = seq ?? 0;
  if (from + count >= VOTES_PER_USER) throw conflict('This user has cast the most votes one user can cast on a site');
  const ids = Array.from({ length: count }, (_, i) => voteIdOf(userId, from + i + 1));
  if (!ids.every(Number.isSafeInteger)) throw conflict('This user id is beyond the range vote ids can hold');
  return { ids, seq: from + count };
}
