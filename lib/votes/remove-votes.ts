/**
 * Taking votes out of ballots again, outside a vote round: when their idea is deleted (the cascade takes
 * every ballot's vote on it, with its count) and when a large round's vote reached a ballot after that
 * cascade had passed it. Each removal is one transaction of the ballot (conditioned on the version
 * read, with the new state's seal) and the idea's tally; a ballot that moved meanwhile is read again.
 */
import { conflict } from '#lib/errors';
import { ballotsHoldingIdea, deleteStrayTally, getBallot, removeVoteFromBallot, type BallotItem } from '#lib/store/ballots/ballots';
import { finishPendingTallies } from '#lib/store/ballots/journal';
import { REPLAN, withReplan } from '#lib/store/db/replan';
import { deleteTally } from '#lib/store/ideas/tallies';
import { sealBallot } from '#lib/votes/seal';
import { checkpointLateEntry } from '#lib/votes/late-entry';

/**
 * Takes the vote on `ideaId` out of one ballot (as read), with its count. Nothing to do when the ballot
 * holds no such vote, so it is safe to repeat (the delete cascade and a round that finds its idea
 * deleted may both run it). Returns the time of the entry it wrote, if it wrote one.
 */
async function removeVoteOnIdea(siteId: number, read: BallotItem, ideaId: number): Promise<string | undefined> {
  const { userId } = read;
  // A round that stopped halfway counts its votes first, so this removal is taken from a full count.
  const first = read.pendingTallies ? (await finishPendingTallies(siteId, userId, read.pendingTallies), await getBallot(siteId, userId, true)) : read;
  return withReplan(
    async (attempt) => {
      const ballot = attempt === 1 ? first : await getBallot(siteId, userId, true);
      const votes = ballot?.votes ?? {};
      if (!ballot || !votes[String(ideaId)]) return undefined;
      const { [String(ideaId)]: _removed, ...rest } = votes;
      const now = new Date().toISOString();
      const seal = sealBallot(ballot, { siteId, userId, version: ballot.version + 1, votes: rest });
      // The ballot moved (a vote round of its user): read again and remove what it holds now.
      return (await removeVoteFromBallot(siteId, ballot, ideaId, seal, now)) === 'done' ? now : REPLAN;
    },
    () => conflict(`The votes of user ${userId} kept changing while idea ${ideaId} was being removed; please retry`),
  );
}

/**
 * Removes every vote on a deleted idea from every ballot of the site, each with its count, then the
 * idea's tally item. Runs after the transaction that made the idea a tombstone and its tally gone, so
 * no new vote can land on it meanwhile; safe to retry (a ballot that no longer holds the idea is skipped).
 * Cost: one Query page per 1 MB of ballots holding the idea, plus one transaction per such ballot (a
 * delete cascade is proportional to the votes it removes; list and vote calls stay constant).
 */
export async function removeIdeaFromBallots(siteId: number, ideaId: number): Promise<void> {
  let lastEntryAt: string | undefined;
  for (const ballot of await ballotsHoldingIdea(siteId, ideaId)) lastEntryAt = (await removeVoteOnIdea(siteId, ballot, ideaId)) ?? lastEntryAt;
  // Moderators delete ideas after the project has ended too: the cascade's entries wake the checkpoints.
  if (lastEntryAt !== undefined) await checkpointLateEntry(siteId, lastEntryAt);
  await deleteTally(siteId, ideaId);
}

/**
 * A vote that reached a ballot after its idea's delete cascade had passed that ballot (a large round,
 * whose later counts ride in the journal, committed while the idea was being deleted): taken out again,
 * with its count, and the count item the journal's ADD may have made of a deleted tally goes too.
 */
export async function removeLateVote(siteId: number, userId: number, ideaId: number): Promise<void> {
  const ballot = await getBallot(siteId, userId, true);
  if (ballot) await removeVoteOnIdea(siteId, ballot, ideaId);
  await deleteStrayTally(siteId, ideaId);
}
