/**
 * Results, exports and the vote record (CONTRACT "Decided details, results and exports").
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, pathId } from '#schemas/common';

const cursor = z.optional(z.string().check(z.minLength(1), z.maxLength(2048)));

export const exportVotesQuery = z.object({
  format: z.enum(['pabulib', 'csv'], { error: 'must be pabulib or csv' }),
  cursor,
});
export type ExportVotesQuery = z.infer<typeof exportVotesQuery>;

export const exportIdeasQuery = z.object({
  format: z.enum(['csv'], { error: 'must be csv' }),
  cursor,
});
export type ExportIdeasQuery = z.infer<typeof exportIdeasQuery>;

export const listCheckpointsQuery = z.object({ ...pageQuery });
export type ListCheckpointsQuery = z.infer<typeof listCheckpointsQuery>;

export const userExportParams = z.object({ siteId: pathId, userId: pathId });

const rankedIdea = z.object({ id: z.int(), title: z.string(), yes: z.int(), no: z.int(), rank: z.int() });
const winnersOf = z.object({ ideaIds: z.array(z.int()), spent: z.number() });
const winners = z.object({ greedy: winnersOf, equalShares: winnersOf });

export const resultsRecord = z.object({
  voteType: z.string(),
  computedAt: z.string(),
  ballots: z.int(),
  ideas: z.array(rankedIdea),
  winners: z.optional(winners),
  themes: z.optional(z.array(z.object({ value: z.string(), ideas: z.array(rankedIdea), winners: z.optional(winners) }))),
  /** The signed checkpoint whose log holds exactly the ballots counted; null while ballots changed since the latest. */
  checkpoint: z.optional(z.nullable(z.object({ id: z.int(), treeSize: z.int(), root: z.string() }))),
});

export const checkpointRecord = z.object({
  id: z.int(),
  siteId: z.int(),
  root: z.string(),
  ballots: z.int(),
  createdAt: z.string(),
});
export type CheckpointRecord = z.infer<typeof checkpointRecord>;

const records = z.array(z.record(z.string(), z.unknown()));
export const userExportResponse = z.object({
  users: records,
  ideas: records,
  articles: records,
  arguments: records,
  votes: records,
  newsletterSignups: records,
});
export type UserExportResponse = z.infer<typeof userExportResponse>;
