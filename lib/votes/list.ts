/**
 * GET /vote: a site's votes as records, filtered by `ideaId`, `userId`, `opinion`, in pages of at most
 * `pageSize` (CONTRACT list envelope). Votes live in ballots (one per user), so a page is ONE read:
 *   - `userId`: the user's ballot (GetItem);
 *   - otherwise a Query of ballots from the cursor's user on, at most `pageSize` ballots (with `ideaId`,
 *     a FilterExpression keeps only ballots holding that idea).
 * The ballots are flattened in user id, then idea id order (shown by vote id to who may not see user
 * ids); `opinion` is applied while flattening, so
 * a page may hold fewer records than `pageSize` (CONTRACT allows it; only `nextCursor: null` ends).
 * A malformed item in the ballot range (a corrupt ballot, a copy under another key, any key a writer
 * chose) shows nowhere, as it counts nowhere (lib/store/ballots/ballots.ts `wellFormedBallots`), and
 * the next page starts right past it, wherever it sorts (lib/store/ballots/keys.ts `resumeAfter`).
 *
 * Visibility (CONTRACT access table): everyone when `votes.isViewable`, else moderator+; `userId` is
 * shown to moderator+ only; a vote a moderator rejected (lib/votes/review.ts) to moderator+ and its voter only. For the same reason, only moderators may filter by another user's id:
 * the filter would otherwise tell who voted what although `userId` is hidden.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { badRequest, forbidden, unauthorized } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import { getShownBallot, queryBallots, type BallotItem } from '#lib/store/ballots/ballots';
import { decodeVoteCursor, encodeVoteCursor, type VoteCursorPosition, type VotePosition } from '#lib/votes/list-cursor';
import { toVoteRecord, votesOfBallot } from '#lib/votes/records';
import type { ListVotesQuery, VoteRecord } from '#schemas/votes';

export async function listVotes(site: Site, caller: Caller, query: ListVotesQuery): Promise<{ records: VoteRecord[]; nextCursor: string | null }> {
  access.vote.read(caller, site.config);
  const seesUserIds = access.vote.seesUserIds(caller);
  if (query.userId !== undefined && !seesUserIds && !(caller.kind === 'user' && caller.userId === query.userId)) {
    if (caller.kind === 'none') throw unauthorized();
    throw forbidden("Only moderators may list another user's votes");
  }

  const cursor = decodeVoteCursor(site.id, query);
  // After a key (no position in a ballot): every vote of the ballots read from there on.
  const from: VotePosition = cursor === undefined || 'afterSk' in cursor ? { userId: 0, ideaId: 0 } : cursor;
  let ballots: BallotItem[];
  let next: VoteCursorPosition | undefined;
  if (query.userId !== undefined) {
    if ((cursor !== undefined && 'afterSk' in cursor) || (from.userId !== 0 && from.userId !== query.userId)) throw badRequest('Invalid cursor');
    const ballot = await getShownBallot(site.id, query.userId);
    ballots = ballot ? [ballot] : [];
  } else {
    const start = cursor !== undefined && 'afterSk' in cursor ? cursor : { fromUserId: from.userId };
    const page = await queryBallots(site.id, { start, limit: query.pageSize, ideaId: query.ideaId });
    ballots = page.ballots;
    next = page.next === undefined ? undefined : 'afterSk' in page.next ? page.next : { userId: page.next.fromUserId, ideaId: 0 };
  }

  const records: VoteRecord[] = [];
  for (const ballot of ballots) {
    // A rejected vote counts nowhere: listed (with `rejected: true`) to moderators and to its voter only.
    const seesRejected = seesUserIds || (caller.kind === 'user' && caller.userId === ballot.userId);
    const votes = votesOfBallot(ballot.votes).filter(
      (vote) =>
        (seesRejected || !vote.review?.rejected) &&
        (ballot.userId !== from.userId || vote.ideaId >= from.ideaId) &&
        (query.ideaId === undefined || vote.ideaId === query.ideaId) &&
        (query.opinion === undefined || vote.opinion === query.opinion),
    );
    for (const vote of votes) {
      if (records.length === query.pageSize) {
        // The page is full and this ballot has more: the next page starts at this very vote.
        return { records: inReadableOrder(records, seesUserIds), nextCursor: encodeVoteCursor(site.id, query, { userId: ballot.userId, ideaId: vote.ideaId }) };
      }
      records.push(toVoteRecord(vote, ballot.userId, seesUserIds));
    }
  }
  return { records: inReadableOrder(records, seesUserIds), nextCursor: next ? encodeVoteCursor(site.id, query, next) : null };
}

/**
 * A page as its reader may see it: in ballot (user id) order for those who see user ids; for everyone
 * else by vote id (random, lib/votes/ids.ts), so neither the order nor the grouping of a page's records
 * tells whose votes they are or who signed up first. (Which page a vote is on still follows the ballot
 * keys: docs/results.md "What an anonymous reader can link".)
 */
function inReadableOrder(records: VoteRecord[], seesUserIds: boolean): VoteRecord[] {
  return seesUserIds ? records : [...records].sort((a, b) => a.id - b.id);
}
