/**
 * Vote ids without a counter and without the voter in them. A site-wide id counter would be one item
 * written by every round (a hot key that caps every site's vote rate); an id made of the user id (as
 * before) tells anyone who can read votes whose vote it is. So each ballot counts the votes it ever
 * added (`voteSeq`, written with the ballot), and a vote's id is
 *
 *   10^12 + P(userId * 2^20 + n)      (n = 1, 2, ... for the user's n-th vote on the site)
 *
 * where P is a keyed permutation of [0, 2^52) (lib/crypto/keyed-permutation.ts) under a key derived
 * from the server key, which the table does not hold. A permutation never maps two inputs to one
 * output, so ids stay unique (each user has their own inputs) with no lookup; without the key an id
 * says nothing of its user or of n, and two votes of one user look unrelated. Ids are stable: stored
 * in the ballot when made. The 10^12 keeps every id above the ids the retired `vote` counter gave; the
 * largest is 10^12 + 2^52, a safe integer. A user id below 2^32, and up to 2^20 - 1 votes per user
 * and site.
 */
import { purposeKey } from '#lib/crypto/derive-key';
import { PERMUTATION_SIZE, permute, unpermute } from '#lib/crypto/keyed-permutation';
import { conflict } from '#lib/errors';

export const VOTES_PER_USER = 2 ** 20;
const MAX_USER_ID = 2 ** 32 - 1;
/** Above every id of the retired `vote` counter. */
export const FIRST_COUNTERLESS_VOTE_ID = 1_000_000_000_000;

export const voteIdOf = (userId: number, n: number): number => FIRST_COUNTERLESS_VOTE_ID + permute(purposeKey('voteIds'), userId * VOTES_PER_USER + n);

export function nextVoteIds(userId: number, seq: number | undefined, count: number): { ids: number[]; seq: number } {
  const from = seq ?? 0;
  if (from + count >= VOTES_PER_USER) throw conflict('This user has cast the most votes one user can cast on a site');
  if (userId > MAX_USER_ID) throw conflict('This user id is beyond the range vote ids can hold');
  const ids = Array.from({ length: count }, (_, i) => voteIdOf(userId, from + i + 1));
  return { ids, seq: from + count };
}

/**
 * The user whose ballot holds the vote `voteId`, read back through the permutation's inverse (one
 * ballot read finds the vote, no index); undefined for an id this scheme did not make (the retired
 * counter's, or none at all).
 */
export function voterOfVoteId(voteId: number): number | undefined {
  const offset = voteId - FIRST_COUNTERLESS_VOTE_ID;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= PERMUTATION_SIZE) return undefined;
  const value = unpermute(purposeKey('voteIds'), offset);
  const [userId, n] = [Math.floor(value / VOTES_PER_USER), value % VOTES_PER_USER];
  return n === 0 || userId === 0 ? undefined : userId;
}
