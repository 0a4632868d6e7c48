/**
 * Vote ids without a counter and without the voter in them. A site-wide id counter would be one item
 * written by every round (a hot key that caps every site's vote rate); an id made of the user id (as
 * before) tells anyone who can read votes whose vote it is. So each ballot counts the votes it ever
 * added (`voteSeq`, written with the ballot), and a vote's id is
 *
 *   10^12 + P(input(userId, n))      (n = 1, 2, ... for the user's n-th vote on the site)
 *
 * where P is a keyed permutation of [0, 2^52) (lib/crypto/keyed-permutation.ts) under a key derived
 * from the server key, which the table does not hold. The input has two layouts, one per kind of
 * user id (lib/store/db/ids.ts), in disjoint parts of P's domain:
 *
 *   a user of the retired counter or an import (id below 10^9 < 2^30):  userId * 2^20 + n          below 2^50
 *   a user with a drawn id (12 digits from 10^11):  2^50 + (userId - 10^11) * 2^14 + n             in [2^50, 2^52)
 *
 * A permutation never maps two inputs to one output, so ids stay unique (each user has their own
 * inputs) with no lookup; without the key an id says nothing of its user or of n, and two votes of
 * one user look unrelated. Ids are stable: stored in the ballot when made. The first layout is the
 * one every vote id so far was made with, so those ids (and a counter user's next ones) are unchanged.
 * The 10^12 keeps every id above the ids the retired `vote` counter gave; the largest is
 * 10^12 + 2^52, a safe integer. A user casts up to 2^20 - 1 votes per site with a counter id, up to
 * 2^14 - 1 = 16,383 with a drawn id.
 */
import { purposeKey } from '#lib/crypto/derive-key';
import { PERMUTATION_SIZE, permute, unpermute } from '#lib/crypto/keyed-permutation';
import { conflict } from '#lib/errors';
import { COUNTER_IDS_BELOW, FIRST_DRAWN_USER_ID, DRAWN_USER_IDS } from '#lib/store/db/ids';

/** One layout of the permutation's inputs: the users it serves and the room each one has. */
interface InputLayout {
  firstUserId: number;
  users: number;
  votesPerUser: number;
  /** Its first input. */
  from: number;
}

const COUNTER_USERS: InputLayout = { firstUserId: 0, users: COUNTER_IDS_BELOW, votesPerUser: 2 ** 20, from: 0 };
const DRAWN_USERS: InputLayout = { firstUserId: FIRST_DRAWN_USER_ID, users: DRAWN_USER_IDS, votesPerUser: 2 ** 14, from: 2 ** 50 };
/** In input order; each ends where the next begins or before (tests/unit/votes/ids.test.ts). */
export const INPUT_LAYOUTS: readonly InputLayout[] = [COUNTER_USERS, DRAWN_USERS];

const endOf = (layout: InputLayout) => layout.from + layout.users * layout.votesPerUser;
const layoutOfUser = (userId: number) =>
  INPUT_LAYOUTS.find((l) => Number.isSafeInteger(userId) && userId > 0 && userId >= l.firstUserId && userId < l.firstUserId + l.users);

/** How many votes a user can ever cast on a site (the ballot's `voteSeq` stays below it); 0 for an id no vote id can hold. */
export const votesPerUser = (userId: number): number => layoutOfUser(userId)?.votesPerUser ?? 0;

/** Above every id of the retired `vote` counter. */
export const FIRST_COUNTERLESS_VOTE_ID = 1_000_000_000_000;

export function voteIdOf(userId: number, n: number): number {
  const layout = layoutOfUser(userId);
  if (!layout || !Number.isSafeInteger(n) || n < 1 || n >= layout.votesPerUser) throw new RangeError(`no vote id for user ${userId}, vote ${n}`);
  return FIRST_COUNTERLESS_VOTE_ID + permute(purposeKey('voteIds'), layout.from + (userId - layout.firstUserId) * layout.votesPerUser + n);
}

export function nextVoteIds(userId: number, seq: number | undefined, count: number): { ids: number[]; seq: number } {
  const from = seq ?? 0;
  const cap = votesPerUser(userId);
  if (cap === 0) throw conflict('This user id is beyond the range vote ids can hold');
  if (from + count >= cap) throw conflict('This user has cast the most votes one user can cast on a site');
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
  const layout = INPUT_LAYOUTS.find((l) => value >= l.from && value < endOf(l));
  if (!layout) return undefined;
  const [user, n] = [Math.floor((value - layout.from) / layout.votesPerUser), (value - layout.from) % layout.votesPerUser];
  const userId = layout.firstUserId + user;
  return n === 0 || userId === 0 ? undefined : userId;
}
