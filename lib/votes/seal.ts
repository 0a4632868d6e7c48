/**
 * The verifiable vote record, domain side: every committed state of a ballot carries
 * `hash` = the chain hash (lib/crypto/merkle.ts `ballotStateHash`) of its previous state's hash, its
 * version and its canonical votes, and `prevHash`, the previous state's hash (GENESIS for the first
 * state, and for a ballot written before the record existed), so each stored state can be checked on
 * its own. Computed here, written by the store in the SAME transaction as the state it seals; no item
 * is written by every round (the record grows with voters, not with a site-wide sequence).
 */
import { pad } from '#lib/store/db/keys';
import { ballotStateHash, GENESIS } from '#lib/crypto/merkle';
import type { BallotSeal, BallotVote } from '#lib/store/ballots/ballots';

/** The key of a ballot in its hash and in the site's Merkle tree: the padded user id (sorts as the ballot keys do). */
export const ballotLeafKey = (userId: number): string => pad(userId);

/** The votes of a stored ballot map in the shape the hash covers (idea id and opinion only). */
export const hashedVotes = (votes: Record<string, BallotVote> | undefined) =>
  Object.entries(votes ?? {}).map(([ideaId, vote]) => ({ ideaId: Number(ideaId), opinion: vote.opinion }));

/**
 * The seal of the state a write produces: `previous` is the ballot as read (undefined: none yet),
 * `version` the version the write gives it.
 */
export function sealBallot(
  previous: { hash?: string | undefined; updatedAt?: string | undefined } | undefined,
  next: { userId: number; version: number; votes: Record<string, BallotVote> },
): BallotSeal {
  const prevHash = previous?.hash ?? GENESIS;
  return {
    prevHash,
    hash: ballotStateHash({ key: ballotLeafKey(next.userId), version: next.version, previousHash: prevHash, votes: hashedVotes(next.votes) }),
    ...(previous?.updatedAt ? { prevUpdatedAt: previous.updatedAt } : {}),
  };
}
