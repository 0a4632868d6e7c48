/**
 * Argument paths, queries, bodies and record (CONTRACT "Records": `{id, siteId, ideaId, userId, parentId,
 * sentiment, description, createdAt, updatedAt}`, plus `yes` / `hasUserVoted` when asked for).
 * Description lengths are per site (`arguments.descriptionMinLength` / `descriptionMaxLength`), so
 * they are checked in lib/arguments against the site config, not here.
 */
import * as z from 'zod';
import { bodyId, pageQuery, pathId, queryFlag } from '#schemas/common';

export const SENTIMENTS = ['for', 'against'] as const;
export const sentiment = z.enum(SENTIMENTS, { error: 'must be for or against' });
export type Sentiment = z.infer<typeof sentiment>;

export const ideaArgumentsParams = z.object({ siteId: pathId, ideaId: pathId });
export type IdeaArgumentsParams = z.infer<typeof ideaArgumentsParams>;

export const argumentParams = z.object({ siteId: pathId, ideaId: pathId, argumentId: pathId });
export type ArgumentParams = z.infer<typeof argumentParams>;

/** Flags that add fields to each record: `withVoteCount` -> `yes`, `withUserVote` -> `hasUserVoted`. */
export const argumentFlags = { withVoteCount: queryFlag, withUserVote: queryFlag };
export const argumentFlagsQuery = z.object(argumentFlags);
export type ArgumentFlags = z.infer<typeof argumentFlagsQuery>;

export const argumentListQuery = z.object({ ...pageQuery, ...argumentFlags, sentiment: sentiment.optional() });
export type ArgumentListQuery = z.infer<typeof argumentListQuery>;

const description = z.string({ error: 'must be a string' }).trim();

export const createArgumentBody = z.object({
  description,
  sentiment: sentiment.optional(),
  /** A reply to a top-level argument of the same idea; null or absent for a top-level argument. */
  parentId: bodyId.nullable().optional(),
  /** Moderators only: write the argument in another user's name. */
  userId: bodyId.optional(),
});
export type CreateArgumentBody = z.infer<typeof createArgumentBody>;

/** PUT is partial; `parentId` (the thread an argument lives in) is not changeable and is ignored. */
export const updateArgumentBody = z.object({
  description: description.optional(),
  sentiment: sentiment.optional(),
  userId: bodyId.optional(),
});
export type UpdateArgumentBody = z.infer<typeof updateArgumentBody>;

export const argumentRecord = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  ideaId: z.number().int(),
  userId: z.number().int().nullable(),
  parentId: z.number().int().nullable(),
  sentiment,
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  yes: z.number().int().optional(),
  hasUserVoted: z.boolean().optional(),
});
export type ArgumentRecordShape = z.infer<typeof argumentRecord>;
