/**
 * The cursor of GET /vote. Votes are listed by flattening ballots (one per user) in user id order and,
 * inside a ballot, in idea id order; a page holds at most `pageSize` votes, so a page can end in the
 * middle of a ballot. The cursor therefore names a position, not a DynamoDB key: "ballot of user `u`,
 * from idea id `i` on" (inclusive). Positions stay valid while ballots change between pages.
 * It is bound to its site (`s`), and every field is checked on the way in: a bad cursor is a 400.
 */
import { badRequest } from '#lib/http/errors';
import { decodeCursorObject, encodeCursorObject } from '#lib/store/cursor';

export interface VotePosition {
  userId: number;
  ideaId: number;
}

/** Ids in keys have 10 digits; a larger position would make an invalid key range (a 500, not a 400). */
const MAX_POSITION = 9_999_999_999;
const isPosition = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_POSITION;

export function encodeVoteCursor(siteId: number, position: VotePosition): string {
  return encodeCursorObject({ s: siteId, u: position.userId, i: position.ideaId });
}

export function decodeVoteCursor(siteId: number, cursor: string | undefined): VotePosition | undefined {
  if (cursor === undefined) return undefined;
  const { s, u, i, ...rest } = decodeCursorObject(cursor, 256);
  if (Object.keys(rest).length > 0 || s !== siteId || !isPosition(u) || !isPosition(i)) throw badRequest('Invalid cursor');
  return { userId: u, ideaId: i };
}
