/**
 * A moderator rejects a vote, or reinstates it (PUT /vote/:voteId `{rejected}`; OpenStad's `checked`
 * flag, docs/results.md "Rejected votes"). A rejection is not an edit of history: it is the ballot's
 * next version, appended to the vote log and chained like every version (lib/votes/seal.ts), holding
 * the rejected vote apart from the votes that count, with the moderator who rejected it; the tallies
 * move in the SAME transaction (the vote round's access pattern, lib/store/ballots/rounds.ts
 * commitRound). So tallies, results, exports and `npm run verify-votes` all read a rejected vote as
 * not counting, and the audit replays every rejection and reinstatement from the log.
 *
 * Which votes a decision covers:
 *   - `likes`: the one vote (each like is about one idea, as OpenStad's flag was per vote row);
 *   - every ballot type (count, budgeting, per theme): the whole ballot. OpenStad flagged one row, which
 *     there left a part of a ballot counting: a selection the voter never made, counted toward the
 *     winners and published in the Pabulib file under their pseudonym, breaking the limits the round
 *     was checked against (minIdeas, minBudget, per theme). A ballot is one choice: it counts whole
 *     or not at all.
 *
 * The voter's later rounds follow OpenStad: a round that keeps a rejected like keeps it rejected (as
 * does a ballot sent again unchanged); one that replaces or takes it back removes it (moving no count),
 * and a new vote counts until a moderator rejects it too. A round that changes a rejected ballot makes
 * a new ballot, counted whole (lib/votes/round.ts): never a ballot counted in part.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { conflict, notFound } from '#lib/errors';
import type { Site } from '#lib/sites/site';
import type { BallotVote as StoredVote } from '#lib/store/ballots/ballots';
import { commitRound, readRoundStart, type TallyChange } from '#lib/store/ballots/rounds';
import { REPLAN, withReplan, type Replan } from '#lib/store/db/replan';
import { voterOfVoteId } from '#lib/votes/ids';
import { toVoteRecord, votesOfBallot } from '#lib/votes/records';
import { isRejected, sealBallot } from '#lib/votes/seal';
import { checkpointLateEntry } from '#lib/votes/late-entry';
import { voteTypeRules } from '#schemas/vote-types';
import type { VoteRecord } from '#schemas/votes';

interface ReviewInput {
  site: Site;
  caller: Caller;
  voteId: number;
  /** The state to set; undefined: none (the answer is the vote as it stands). */
  rejected: boolean | undefined;
  clock?: () => Date;
}

const missing = (siteId: number, voteId: number) => notFound(`Vote ${voteId} not found on site ${siteId}`);

/**
 * Sets the vote's state and answers its record (as moderators see it). Setting the state it has
 * writes nothing: a retried request ends where the first one did.
 */
export async function reviewVote({ site, caller, voteId, rejected, clock = () => new Date() }: ReviewInput): Promise<VoteRecord> {
  access.vote.review(caller);
  const userId = voterOfVoteId(voteId);
  if (userId === undefined) throw missing(site.id, voteId);
  const by = caller.kind === 'user' ? caller.userId : null;
  const record = (votes: Record<string, StoredVote>) => toVoteRecord(votesOfBallot(votes).find((vote) => vote.id === voteId)!, userId, true);

  return withReplan(async (): Promise<VoteRecord | Replan> => {
    const now = clock();
    const { ballot } = await readRoundStart(site.id, userId, undefined, now);
    const held = ballot?.votes ?? {};
    const key = Object.keys(held).find((ideaId) => held[ideaId]!.id === voteId);
    if (!ballot || key === undefined) throw missing(site.id, voteId);
    if (rejected === undefined || isRejected(held[key]!) === rejected) return record(held);

    const covered = voteTypeRules(site.config.votes.voteType).round === 'toggle' ? [key] : Object.keys(held);
    const review = { rejected, by, at: now.toISOString() };
    const votes: Record<string, StoredVote> = { ...held };
    const changes: TallyChange[] = [];
    for (const ideaId of covered) {
      const vote = held[ideaId]!;
      if (isRejected(vote) === rejected) continue;
      votes[ideaId] = { ...vote, review };
      // Reinstating adds a count back: its idea must still be there (the round's "still votable" check).
      changes.push({ ideaId: Number(ideaId), change: { [vote.opinion]: rejected ? -1 : 1 }, addsVotes: !rejected });
    }
    const seal = sealBallot(ballot, { siteId: site.id, userId, version: ballot.version + 1, votes });
    const outcome = await commitRound({ siteId: site.id, userId, readVersion: ballot.version, votes, seal, voteSeq: ballot.voteSeq, changes, now });
    switch (outcome.kind) {
      case 'committed':
        // Unlike a round's, a review's `lateGone` needs nothing: it adds no vote to the ballot, so the
        // delete cascade of an idea, which takes the vote of every ballot holding one, takes these too.
        // Reviews go on after the project has ended: the new entry wakes the checkpoints.
        await checkpointLateEntry(site.id, now);
        return record(votes);
      case 'ideas-gone':
        throw conflict(`Vote ${voteId} cannot be reinstated: its idea is being deleted`);
      case 'ballot-too-large':
        throw conflict(`The ballot holding vote ${voteId} is too large to record this decision`);
      default:
        // The voter's round (or an idea delete) moved the ballot meanwhile: decide again on what it holds now.
        return REPLAN;
    }
  }, () => conflict(`The ballot holding vote ${voteId} kept changing; please retry`));
}
