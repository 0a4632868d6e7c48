/**
 * The cursor of GET /vote. Votes are listed by flattening ballots (one per user) in user id order and,
 * inside a ballot, in idea id order; a page holds at most `pageSize` votes, so a page can end in the
 * middle of a ballot. The cursor therefore names a position, not a DynamoDB key: "ballot of user `u`,
 * from idea id `i` on" (inclusive). Positions stay valid while ballots change between pages. After an
 * item in the ballot range under a key no user's ballot key begins (a writer put it there), the
 * position is that key itself (`k`, base64url): the next page starts right after it
 * (lib/store/ballots/keys.ts `resumeAfter`).
 * It is sealed like every cursor (lib/store/db/cursor.ts: encrypted, bound to the site, this list and the
 * query's filters), carries its site (`s`) once more, and every field is checked on the way in: a bad
 * cursor is a 400.
 */
import { badRequest } from '#lib/errors';
import { decodeCursorObject, encodeCursorObject, listQueryOf, type CursorScope } from '#lib/store/db/cursor';
import { ballotKeys } from '#lib/store/ballots/keys';

export interface VotePosition {
  userId: number;
  ideaId: number;
}

/** Where the next page starts: a position, or right after a key of the ballot range. */
export type VoteCursorPosition = VotePosition | { afterSk: string };

/** A cursor carrying a key (at most 1 KB, DynamoDB's sort key limit) is longer than one carrying ids. */
const MAX_CURSOR_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A position is an id or 0: a safe integer, which every key range over ids holds (a 400, never an invalid range's 500). */
const isPosition = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** The list's parsed query (its `ideaId`, `userId`, `opinion` filters are part of the binding). */
type ListQuery = Record<string, unknown>;

const scopeOf = (siteId: number, query: ListQuery): CursorScope => ({ siteId, list: 'votes', query: listQueryOf(query) });

export function encodeVoteCursor(siteId: number, query: ListQuery, position: VoteCursorPosition): string {
  const at = 'afterSk' in position ? { k: Buffer.from(position.afterSk, 'utf8').toString('base64url') } : { u: position.userId, i: position.ideaId };
  return encodeCursorObject({ s: siteId, ...at }, scopeOf(siteId, query));
}

export function decodeVoteCursor(siteId: number, query: ListQuery & { cursor?: string | undefined }): VoteCursorPosition | undefined {
  const { cursor } = query;
  if (cursor === undefined) return undefined;
  const { s, u, i, k, ...rest } = decodeCursorObject(cursor, scopeOf(siteId, query), MAX_CURSOR_LENGTH);
  if (Object.keys(rest).length > 0 || s !== siteId) throw badRequest('Invalid cursor');
  if (k !== undefined) {
    const afterSk = typeof k === 'string' && BASE64URL.test(k) && u === undefined && i === undefined ? Buffer.from(k, 'base64url').toString('utf8') : '';
    if (!ballotKeys.inRange(siteId, afterSk)) throw badRequest('Invalid cursor');
    return { afterSk };
  }
  if (!isPosition(u) || !isPosition(i)) throw badRequest('Invalid cursor');
  return { userId: u, ideaId: i };
}
