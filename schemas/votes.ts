/**
 * Vote schemas: the POST body (validated at the edge by the route, the same schema the rules' input
 * type comes from), the record of CONTRACT "Records", the list query, the Idempotency-Key header.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, pathId } from '#schemas/common';

export const voteParams = z.object({ siteId: pathId, voteId: pathId });

/** Upper bound of one round, so a single request cannot ask for an unbounded amount of work. */
export const MAX_ROUND_ENTRIES = 500;
const MAX_OPINION_LENGTH = 64;

const ideaIdMessage = 'ideaId must be a positive integer';
const opinionMessage = `opinion must be a non-empty string of at most ${MAX_OPINION_LENGTH} characters`;

/**
 * One vote of a round. Ids are JSON integers only (CONTRACT: ids in bodies are integers; the string
 * `"12"` is not accepted). `z.int()` also bounds them to the safe-integer range. Unknown keys are dropped.
 */
export const castVoteSchema = z.object(
  {
    ideaId: z.int({ error: ideaIdMessage }).check(z.positive({ error: ideaIdMessage })),
    opinion: z._default(
      z.string({ error: opinionMessage }).check(z.minLength(1, { error: opinionMessage }), z.maxLength(MAX_OPINION_LENGTH, { error: opinionMessage })),
      'yes',
    ),
  },
  { error: 'Each vote must be an object {ideaId, opinion}' },
);
export type CastVote = z.output<typeof castVoteSchema>;

/**
 * The POST /vote body: an array of `{ideaId, opinion}` or a single object (a round of one, CONTRACT
 * "Vote"). The count is checked before the entries, so an oversized round costs no per-entry work.
 * Whether the ideas exist and the opinions are allowed is for planRound, which knows the site.
 */
export const castVotesBody = z.pipe(
  // What zod classic calls a preprocess: a transform ahead of the schema.
  z.transform((body: unknown) => (Array.isArray(body) || typeof body !== 'object' || body === null ? body : [body])),
  z.pipe(
    z.array(z.unknown(), { error: 'Body must be a vote {ideaId, opinion} or an array of votes' }).check(
      z.minLength(1, { error: 'A vote round needs at least one vote' }),
      z.maxLength(MAX_ROUND_ENTRIES, { error: (issue) => `A vote round holds at most ${MAX_ROUND_ENTRIES} votes; this one holds ${(issue.input as unknown[]).length}` }),
    ),
    z.array(castVoteSchema),
  ),
);

/** `userId` is present for moderators and above (and in the caller's own POST answer) only. */
export const voteRecordSchema = z.object({
  id: z.int().check(z.positive()),
  ideaId: z.int().check(z.positive()),
  userId: z.optional(z.int().check(z.positive())),
  opinion: z.string(),
  createdAt: z.string(),
  /** Present (true) when a moderator rejected the vote: it counts in no tally, result or export. */
  rejected: z.optional(z.literal(true)),
  /** When a moderator last rejected or reinstated it; shown with `userId` only. */
  reviewedAt: z.optional(z.string()),
  /** In a vote round's answer: the hex mac of the ballot's vote log entry (`GET .../vote-receipt/:receipt`). */
  receipt: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
});
export type VoteRecord = z.infer<typeof voteRecordSchema>;


export const castVotesResponse = z.array(voteRecordSchema);

/**
 * PUT /vote/:voteId (moderators): `rejected` sets the vote's state, true takes it out of every count,
 * false counts it again. Partial like every update: without `rejected` nothing changes and the answer
 * is the vote as it stands (how the OpenStad surface's toggle reads the state it flips).
 */
export const reviewVoteBody = z.object({ rejected: z.optional(z.boolean({ error: 'rejected must be true or false' })) });

export const listVotesQuery = z.object({
  ideaId: z.optional(pathId),
  userId: z.optional(pathId),
  opinion: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_OPINION_LENGTH))),
  ...pageQuery,
});
export type ListVotesQuery = z.infer<typeof listVotesQuery>;


/** Clients pick the key (a UUID fits); 1..128 URL-safe characters. */
export const idempotencyKeySchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,128}$/, 'Idempotency-Key must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -'));
