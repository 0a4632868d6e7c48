/**
 * Argument paths, queries, bodies and record (CONTRACT "Records": `{id, siteId, ideaId, userId, parentId,
 * sentiment, description, createdAt, updatedAt}`, plus `yes` / `hasUserVoted` when asked for).
 * Description lengths are per site (`arguments.descriptionMinLength` / `descriptionMaxLength`), so
 * they are checked in lib/arguments against the site config, not here.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { bodyId, pageQuery, pathId, queryFlag } from '#schemas/common';

const SENTIMENTS = ['for', 'against'] as const;
const sentiment = z.enum(SENTIMENTS, { error: 'must be for or against' });

export const ideaArgumentsParams = z.object({ siteId: pathId, ideaId: pathId });
export type IdeaArgumentsParams = z.infer<typeof ideaArgumentsParams>;

export const argumentParams = z.object({ siteId: pathId, ideaId: pathId, argumentId: pathId });
export type ArgumentParams = z.infer<typeof argumentParams>;

/** Flags that add fields to each record: `withVoteCount` -> `yes`, `withUserVote` -> `hasUserVoted`. */
const argumentFlags = {
  withVoteCount: queryFlag,
  withUserVote: queryFlag,
  /** `user`: the author as the public sees users, `{id, role, displayName, nickName}` (one BatchGet for the page). */
  withUser: queryFlag,
};
export const argumentFlagsQuery = z.object(argumentFlags);
export type ArgumentFlags = z.infer<typeof argumentFlagsQuery>;

export const argumentListQuery = z.object({
  ...pageQuery,
  ...argumentFlags,
  sentiment: z.optional(sentiment),
  /** An idea's list: top-level arguments only, each with its replies in `reactions`. */
  includeReactionsOnReactions: queryFlag,
});
export type ArgumentListQuery = z.infer<typeof argumentListQuery>;

const description = z.string({ error: 'must be a string' }).check(z.trim());

export const createArgumentBody = z.object({
  description,
  sentiment: z.optional(sentiment),
  /** A reply to a top-level argument of the same idea; null or absent for a top-level argument. */
  parentId: z.optional(z.nullable(bodyId)),
  /** Moderators only: write the argument in another user's name. */
  userId: z.optional(bodyId),
});
export type CreateArgumentBody = z.infer<typeof createArgumentBody>;

/** PUT is partial; `parentId` (the thread an argument lives in) is not changeable and is ignored. */
export const updateArgumentBody = z.object({
  description: z.optional(description),
  sentiment: z.optional(sentiment),
  userId: z.optional(bodyId),
});
export type UpdateArgumentBody = z.infer<typeof updateArgumentBody>;

const argumentRecordBase = z.object({
  id: z.int(),
  siteId: z.int(),
  ideaId: z.int(),
  userId: z.nullable(z.int()),
  parentId: z.nullable(z.int()),
  sentiment,
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  yes: z.optional(z.int()),
  hasUserVoted: z.optional(z.boolean()),
  /** With `withUser`: the author as the public sees users (null when there is none). */
  user: z.optional(z.nullable(z.object({ id: z.int(), role: z.string(), displayName: z.string(), nickName: z.nullable(z.string()) }))),
  /** On reads: whether this caller's update, delete or reply would be allowed (the rules those writes apply). */
  can: z.optional(z.object({ edit: z.boolean(), delete: z.boolean(), reply: z.boolean() })),
});

export const argumentRecord = z.extend(argumentRecordBase, {
  /** With `includeReactionsOnReactions` on an idea's list: the replies of a top-level argument. */
  reactions: z.optional(z.array(argumentRecordBase)),
});
export type ArgumentRecordShape = z.infer<typeof argumentRecord>;
