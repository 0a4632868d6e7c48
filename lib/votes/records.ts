/**
 * Ballot contents <-> vote records. A ballot stores votes keyed by idea id; the API shows each vote as
 * a record `{id, ideaId, userId, opinion, createdAt}` (CONTRACT "Records"), in idea id order.
 */
import type { BallotVote as StoredVote } from '#lib/store/ballots/ballots';
import type { BallotVote } from '#lib/votes/types';
import type { VoteRecord } from '#schemas/votes';

/** The votes of a stored ballot (`undefined`: no ballot), ordered by idea id. */
export function votesOfBallot(stored: Record<string, StoredVote> | undefined): BallotVote[] {
  return Object.entries(stored ?? {})
    .map(([ideaId, vote]) => ({ id: vote.id, ideaId: Number(ideaId), opinion: vote.opinion, createdAt: vote.createdAt, ...(vote.review ? { review: vote.review } : {}) }))
    .sort((a, b) => a.ideaId - b.ideaId);
}

/**
 * `receipt`: in a round's answer, the mac of the vote log entry that holds the ballot (the same for all
 * its records). A rejected vote says so (`rejected: true`) to whoever may see it; when it was
 * rejected or reinstated (`reviewedAt`) goes with the user id, to moderators and the voter.
 */
export function toVoteRecord(vote: BallotVote, userId: number, showUserId: boolean, receipt?: string): VoteRecord {
  return {
    id: vote.id,
    ideaId: vote.ideaId,
    ...(showUserId ? { userId } : {}),
    opinion: vote.opinion,
    createdAt: vote.createdAt,
    ...(vote.review?.rejected ? { rejected: true } : {}),
    ...(showUserId && vote.review ? { reviewedAt: vote.review.at } : {}),
    ...(receipt !== undefined ? { receipt } : {}),
  };
}

const RECEIPT = /^[0-9a-f]{64}$/;

/** A ballot's receipt: the mac of its latest log entry (a ballot from before the log has none). */
export const receiptOf = (ballot: { hash?: string | undefined } | undefined): string | undefined =>
  ballot?.hash !== undefined && RECEIPT.test(ballot.hash) ? ballot.hash : undefined;

/** What a round's Idempotency-Key keeps: the vote set and the receipt (older records: the vote set alone). */
export function storedRoundAnswer(value: unknown): { votes: Record<string, StoredVote>; receipt: string | undefined } | undefined {
  if (isStoredVoteMap(value)) return { votes: value, receipt: undefined };
  if (typeof value !== 'object' || value === null) return undefined;
  const { votes, receipt } = value as { votes?: unknown; receipt?: unknown };
  if (!isStoredVoteMap(votes)) return undefined;
  return { votes, receipt: typeof receipt === 'string' && RECEIPT.test(receipt) ? receipt : undefined };
}

/** Whether a stored value looks like a ballot's vote map (it comes back from an idempotency record). */
export function isStoredVoteMap(value: unknown): value is Record<string, StoredVote> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([ideaId, vote]) =>
      /^[1-9][0-9]*$/.test(ideaId) &&
      typeof vote === 'object' &&
      vote !== null &&
      typeof (vote as StoredVote).id === 'number' &&
      typeof (vote as StoredVote).opinion === 'string' &&
      typeof (vote as StoredVote).createdAt === 'string',
  );
}
