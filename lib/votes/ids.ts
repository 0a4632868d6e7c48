/**
 * Vote ids without a counter (issue 17): a site-wide (or global) id counter is one item written by
 * every round, a hot key that caps every site's vote rate. Instead each ballot counts the votes it ever
 * added (`voteSeq`, written with the ballot), and a vote's id is
 *
 *   userId * 1,000,000 + n      (n = 1, 2, ... for the user's n-th vote on the site)
 *
 * unique per site and stable, as the `{id}` of a vote record needs; a safe integer up to user id
 * 9,007,199,254. Votes cast before kept their counter ids, which are far below 1,000,000 on any
 * deployment this ran on before; a user would need a million votes on one site to run out.
 */
import { conflict } from '#lib/errors';

export const VOTES_PER_USER = 1_000_000;

export function nextVoteIds(userId: number, seq: number | undefined, count: number): { ids: number[]; seq: number } {
  const from = seq ?? 0;
  if (from + count >= VOTES_PER_USER) throw conflict('This user has cast the most votes one user can cast on a site');
  const ids = Array.from({ length: count }, (_, i) => userId * VOTES_PER_USER + from + i + 1);
  return { ids, seq: from + count };
}
