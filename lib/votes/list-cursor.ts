/**
 * The cursor of GET /vote. Votes are listed by flattening ballots (one per user) in user id order and,
 * inside a ballot, in idea id order; a page holds at most `pageSize` votes, so a page can end in the
 * middle of a ballot. The cursor therefore names a position, not a DynamoDB key: "ballot of user `u`,
 * from idea id `i` on" (inclusive). Positions stay valid while ballots change between pages.
 * It is sealed like every cursor (lib/store/db/cursor.ts: encrypted, bound to the site, this list and the
 * query's filters), carries its site (`s`) once more, and every field is checked on the way in: a bad
 * cursor is a 400.
 */
import { badRequest } from '#lib/errors';
import { decodeCursorObject, encodeCursorObject, listQueryOf, type CursorScope } from '#lib/store/db/cursor';

export interface VotePosition {
  userId: number;
  ideaId: number;
}

/** A position is an id or 0: a safe integer, which every key range over ids holds (a 400, never an invalid range's 500). */
const isPosition = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** The list's parsed query (its `ideaId`, `userId`, `opinion` filters are part of the binding). */
type ListQuery = Record<string, unknown>;

const scopeOf = (siteId: number, query: ListQuery): CursorScope => ({ siteId, list: 'votes', query: listQueryOf(query) });

export function encodeVoteCursor(siteId: number, query: ListQuery, position: VotePosition): string {
  return encodeCursorObject({ s: siteId, u: position.userId, i: position.ideaId }, scopeOf(siteId, query));
}

export function decodeVoteCursor(siteId: number, query: ListQuery & { cursor?: string | undefined }): VotePosition | undefined {
  const { cursor } = query;
  if (cursor === undefined) return undefined;
  const { s, u, i, ...rest } = decodeCursorObject(cursor, scopeOf(siteId, query), 512);
  if (Object.keys(rest).length > 0 || s !== siteId || !isPosition(u) || !isPosition(i)) throw badRequest('Invalid cursor');
  return { userId: u, ideaId: i };
}
