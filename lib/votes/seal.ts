/**
 * The vote record, domain side (docs/results.md "The vote record"): every write that changes a ballot
 * appends one entry to the site's vote log, sealed with the chain key (lib/vote-record/entry.ts): the
 * ballot's new version, the mac of the version before it (GENESIS_MAC for a ballot's first entry), its
 * whole vote set (the votes that count, and apart from them those a moderator rejected) and the time
 * written. The store Puts the entry in the SAME transaction as the state it
 * seals, and the ballot keeps the entry's mac (`hash`: the voter's receipt, and what the next version
 * chains to). No item is written by every round of a site: the log's order is fixed later by the
 * vote-checkpoints job reading entries by time.
 */
import type { BallotSeal, BallotVote } from '#lib/store/ballots/ballots';
import { GENESIS_MAC, sealEntry } from '#lib/vote-record/entry';
import { entryItemOf } from '#lib/vote-record/entry-item';
import { voteChainKey } from '#lib/vote-record/keys';

/** Whether a moderator rejected the vote (lib/votes/review.ts): then nothing counts it. */
export const isRejected = (vote: BallotVote): boolean => vote.review?.rejected === true;

/**
 * The votes of a stored ballot map that count, as an entry holds them (idea id and opinion only), by
 * idea id: a map's key order is not its ids' order once ids reach 2^32 (JavaScript orders only smaller
 * integer keys numerically), so nothing may read a ballot in key order. Tallies, results, exports and
 * the audit all count these; rejected votes are not among them.
 */
export const entryVotes = (votes: Record<string, BallotVote> | undefined) =>
  Object.entries(votes ?? {})
    .filter(([, vote]) => !isRejected(vote))
    .map(([ideaId, vote]) => ({ ideaId: Number(ideaId), opinion: vote.opinion }))
    .sort((a, b) => a.ideaId - b.ideaId);

/** The rejected votes of a stored ballot map, as an entry holds them, by idea id. */
export const rejectedEntryVotes = (votes: Record<string, BallotVote> | undefined) =>
  Object.entries(votes ?? {})
    .filter(([, vote]) => isRejected(vote))
    .map(([ideaId, vote]) => ({ ideaId: Number(ideaId), opinion: vote.opinion, by: vote.review!.by }))
    .sort((a, b) => a.ideaId - b.ideaId);

const MAC = /^[0-9a-f]{64}$/;

/**
 * The seal of the state a write produces: `previous` is the ballot as read (undefined: none yet). A
 * ballot from before the log (its `hash` is no mac) starts a chain of its own at its next version.
 * The entry is stamped with the wall clock as it is sealed, just before its write, never with a clock
 * the caller carries: a job's clock is its schedule time, minutes behind by the time its writes commit,
 * and the checkpoint job takes entries by the time written (one stamped before a cut that was already
 * made would never be sequenced).
 */
export function sealBallot(
  previous: { hash?: string | undefined } | undefined,
  next: { siteId: number; userId: number; version: number; votes: Record<string, BallotVote> },
  /** `migrated`: the first seal `npm run migrate` gives a ballot from before the log (marked in the mac). */
  how: { migrated?: true } = {},
): BallotSeal {
  const prevMac = previous?.hash !== undefined && MAC.test(previous.hash) ? previous.hash : GENESIS_MAC;
  const rejected = rejectedEntryVotes(next.votes);
  const entry = sealEntry(voteChainKey(), {
    siteId: next.siteId,
    userId: next.userId,
    version: next.version,
    prevMac,
    votes: entryVotes(next.votes),
    ...(rejected.length > 0 ? { rejected } : {}),
    writtenAt: new Date().toISOString(),
    ...(how.migrated ? { migrated: true as const } : {}),
  });
  return { hash: entry.mac, prevHash: prevMac, entry: entryItemOf(entry) };
}
