/**
 * A user's whole vote set brought in from another system (the OpenStad import): written as ONE vote
 * round through the same access pattern as every round (lib/store/ballots/rounds.ts commitRound: the
 * ballot with its chain hash and the tallies of its ideas in one transaction), so it is part of the
 * vote record like any other round and `npm run verify-votes` checks it. The voting rules are not
 * applied: these votes were valid where they were cast; the round only needs its ideas to exist.
 *
 * Only while the user is on the site and not anonymized (a ConditionCheck on the user in the same
 * transaction): 'user-gone' otherwise.
 *
 * Idempotent: a user who already has a ballot holding exactly these votes is left alone ('unchanged');
 * a ballot that holds other votes is never overwritten ('differs').
 */
import { readRoundStart, commitRound, type TallyChange } from '#lib/store/ballots/rounds';
import type { BallotVote } from '#lib/store/ballots/ballots';
import { nextVoteIds } from '#lib/votes/ids';
import { sealBallot } from '#lib/votes/seal';
import { REPLAN, withReplan, type Replan } from '#lib/store/db/replan';

export interface ImportedVote {
  ideaId: number;
  opinion: string;
  createdAt: string;
}

type ImportBallotOutcome = { kind: 'written' } | { kind: 'unchanged' } | { kind: 'differs' } | { kind: 'ideas-gone'; ideaIds: number[] } | { kind: 'user-gone' };

const sameVotes = (held: Record<string, BallotVote>, votes: readonly ImportedVote[]) =>
  Object.keys(held).length === votes.length && votes.every((v) => held[String(v.ideaId)]?.opinion === v.opinion);

export async function importBallot(siteId: number, userId: number, votes: readonly ImportedVote[], now = new Date()): Promise<ImportBallotOutcome> {
  return withReplan(async (): Promise<ImportBallotOutcome | Replan> => {
    const { ballot } = await readRoundStart(siteId, userId, undefined, now);
    if (ballot) return sameVotes(ballot.votes ?? {}, votes) ? { kind: 'unchanged' } : { kind: 'differs' };
    const ids = nextVoteIds(userId, undefined, votes.length);
    const stored: Record<string, BallotVote> = {};
    votes.forEach((vote, i) => {
      stored[String(vote.ideaId)] = { id: ids.ids[i]!, opinion: vote.opinion, createdAt: vote.createdAt };
    });
    const changes: TallyChange[] = votes.map((vote) => ({ ideaId: vote.ideaId, change: { [vote.opinion]: 1 }, addsVotes: true }));
    const outcome = await commitRound({
      siteId,
      userId,
      readVersion: undefined,
      votes: stored,
      seal: sealBallot(undefined, { siteId, userId, version: 1, votes: stored }),
      voteSeq: ids.seq,
      changes,
      // The user was read when the import began; deleted or anonymized since, they get no ballot.
      userMustExist: true,
      now,
    });
    if (outcome.kind === 'committed') return { kind: 'written' };
    if (outcome.kind === 'ideas-gone' || outcome.kind === 'user-gone') return outcome;
    if (outcome.kind === 'ballot-too-large') throw new Error(`the ${votes.length} votes of user ${userId} do not fit in one ballot`);
    // ballot-changed / contended: someone wrote meanwhile; read again.
    return REPLAN;
  }, () => new Error(`the ballot of user ${userId} on site ${siteId} kept changing while it was imported`));
}
