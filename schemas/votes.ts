/**
 * Vote schemas: the record of CONTRACT "Records", the list query, the Idempotency-Key header. The POST
 * body is checked by `validateVoteRoundBody` (lib/votes/body.ts), which reports `[i].ideaId` paths; the
 * route takes it as it comes.
 */
import * as z from 'zod';
import { MAX_OPINION_LENGTH } from '#lib/votes/body';
import { listEnvelope, pageQuery, pathId } from '#schemas/common';

/** `userId` is present for moderators and above (and in the caller's own POST answer) only. */
export const voteRecordSchema = z.object({
  id: z.number().int().positive(),
  ideaId: z.number().int().positive(),
  userId: z.number().int().positive().optional(),
  opinion: z.string(),
  createdAt: z.string(),
});
export type VoteRecord = z.infer<typeof voteRecordSchema>;

export const castVotesBody = z.unknown();

export const castVotesResponse = z.array(voteRecordSchema);

export const listVotesQuery = z.object({
  ideaId: pathId.optional(),
  userId: pathId.optional(),
  opinion: z.string().min(1).max(MAX_OPINION_LENGTH).optional(),
  ...pageQuery,
});
export type ListVotesQuery = z.infer<typeof listVotesQuery>;

export const listVotesResponse = listEnvelope(voteRecordSchema);

/** Clients pick the key (a UUID fits); 1..128 URL-safe characters. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Idempotency-Key must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -');
