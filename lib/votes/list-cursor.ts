/**
 * The cursor of GET /vote. Votes are listed by flattening ballots (one per user) in user id order and,
 * inside a ballot, in idea id order; a page holds at most `pageSize` votes, so a page can end in the
 * middle of a ballot. The cursor therefore names a position, not a DynamoDB key: "ballot of user `u`,
 * from idea id `i` on" (inclusive). Positions stay valid while ballots change between pages.
 * It is bound to its site (`s`), and every field is checked on the way in: a bad cursor is a 400.
 */
import { badRequest } from '#lib/http/errors';

export interface VotePosition {
  userId: number;
  ideaId: number;
}

/** Ids in keys have 10 digits; a larger position would make an invalid key range (a 500, not a 400). */
const MAX_POSITION = 9_999_999_999;
const isPosition = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_POSITION;

export function encodeVoteCursor(siteId: number, position: VotePosition): string {
  return Buffer.from(JSON.stringify({ s: siteId, u: position.userId, i: position.ideaId }), 'utf8').toString('base64url');
}

export function decodeVoteCursor(siteId: number, cursor: string | undefined): VotePosition | undefined {
  if (cursor === undefined) return undefined;
  const bad = () => badRequest('Invalid cursor');
  if (cursor.length > 256 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
  const { s, u, i, ...rest } = parsed as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || s !== siteId || !isPosition(u) || !isPosition(i)) throw bad();
  return { userId: u, ideaId: i };
}
