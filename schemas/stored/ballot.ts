/** Ballots (`BALLOT#<user>`: a user's whole vote set on a site) and their journal: lib/store/ballots/ballots.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

export const storedBallotVote = keepingUnnamed(
  z.object({
    id: storedInt,
    opinion: z.string(),
    createdAt: storedInstant,
    /** The idea's budget and theme when the vote was cast (absent on votes cast before per-idea tallies). */
    budget: z.optional(z.nullable(z.number())),
    theme: z.optional(z.nullable(z.string())),
    /**
     * A moderator's decision on the vote (lib/votes/review.ts): rejected votes stay on the ballot, sealed
     * in its log entry as rejected, and no tally, result or export counts them. `by`: the moderator's
     * user id (null: a service token); `at`: when. Absent on a vote no moderator has looked at.
     */
    review: z.optional(z.object({ rejected: z.boolean(), by: z.nullable(storedInt), at: storedInstant })),
  }),
);
export type StoredBallotVote = z.output<typeof storedBallotVote>;

/** A round's counts still to apply (lib/store/ballots/journal.ts). */
export const storedPendingTallies = z.object({
  next: storedInt,
  steps: z.array(z.array(z.object({ ideaId: storedInt, change: z.record(z.string(), z.number()) }))),
});
export type StoredPendingTallies = z.output<typeof storedPendingTallies>;

const ballotFields = {
  siteId: storedInt,
  userId: storedInt,
  votes: z.record(z.string(), storedBallotVote),
  version: storedInt,
  updatedAt: storedInstant,
  hash: z.optional(z.string()),
  prevHash: z.optional(z.string()),
  prevUpdatedAt: z.optional(storedInstant),
  voteSeq: z.optional(storedInt),
  /** How many of `votes` a moderator rejected (absent: none). */
  rejected: z.optional(storedInt),
  pendingTallies: z.optional(storedPendingTallies),
};
export const storedBallot = keepingUnnamed(z.object(ballotFields));
/** The attributes of a ballot its schema names: what a reader checking whole ballots projects. */
export const storedBallotAttributes: readonly string[] = Object.keys(ballotFields);
export type StoredBallot = z.output<typeof storedBallot>;
/** A projected read of ballots (results, exports, the vote record): what it asked for, each checked. */
export const storedBallotView = keepingUnnamed(z.partial(z.object(ballotFields)));

/** An idea's tally item (`IDEA#<id>#TALLY`): lib/store/ideas/tallies.ts. Its `v_<opinion>` counters are checked there. */
export const storedTally = keepingUnnamed(
  z.object({
    tallyOf: storedInt,
    budget: z.optional(z.nullable(z.number())),
    theme: z.optional(z.nullable(z.string())),
    author: z.optional(z.nullable(storedInt)),
    gone: z.optional(z.literal(true)),
    /** The idea's number of arguments (replies included), moved by the argument writes. */
    args: z.optional(z.int()),
  }),
);

/** A stored answer of an `Idempotency-Key` (`IDEMP#<scope>#<key>`): lib/store/ballots/idempotency.ts. */
export const storedIdempotency = keepingUnnamed(
  z.object({ requestHash: z.string(), response: z.unknown(), createdAt: storedInstant, ttl: storedInt }),
);
