/**
 * Idea paths, queries and record (CONTRACT "Records": `{id, siteId, userId, title, summary,
 * description, status, budget, extraData, createdAt, updatedAt}` plus what the include flags add).
 * The body schemas are the shared content-item ones, built with the site's `config.ideas` limits.
 */
import * as z from 'zod';
import { pageQuery, pathId, queryFlag } from '#schemas/common';
import { contentIncludeFlags, contentRecordSchema } from '#schemas/content-item';
import { checkDiscoveryQuery, discoveryQuery, location } from '#schemas/discovery';

export { contentBodySchema as ideaCreateBody, contentUpdateSchema as ideaUpdateBody } from '#schemas/content-item';

export const ideaParams = z.object({ siteId: pathId, ideaId: pathId });
export type IdeaParams = z.infer<typeof ideaParams>;

export const ideaSorts = ['createdate_desc', 'createdate_asc', 'votes_desc', 'votes_asc'] as const;
export type IdeaSort = (typeof ideaSorts)[number];

export const ideaIncludeQuery = z.object({
  ...contentIncludeFlags,
  includeArguments: queryFlag,
  includeVoteCount: queryFlag,
  includeUserVote: queryFlag,
});
export type IdeaIncludes = z.infer<typeof ideaIncludeQuery>;

/** `distance` orders by the distance from `near` (discovery, issue 18). */
export const ideaListSorts = [...ideaSorts, 'distance'] as const;

export const listIdeasQuery = ideaIncludeQuery
  .extend({
    ...pageQuery,
    selectRunning: queryFlag,
    sort: z
      .enum(ideaListSorts, { error: `must be one of ${ideaListSorts.join(', ')}` })
      .optional()
      .transform((s) => s ?? 'createdate_desc'),
    // Discovery filters (issue 18).
    ...discoveryQuery,
  })
  .superRefine(checkDiscoveryQuery);
export type ListIdeasQuery = z.infer<typeof listIdeasQuery>;

/** An argument as `includeArguments` shows it (the record of lib/arguments/record.ts). */
const argumentInIdea = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  ideaId: z.number().int(),
  userId: z.number().int().nullable(),
  parentId: z.number().int().nullable(),
  sentiment: z.enum(['for', 'against']),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ideaRecord = contentRecordSchema.extend({
  tags: z.array(z.number().int()),
  location: location.nullable(),
  yes: z.number().int().optional(),
  no: z.number().int().optional(),
  /** With the counts: min(100, round(100 * yes / ideas.minimumYesVotes)) (lifecycle). */
  progress: z.number().int().min(0).max(100).optional(),
  userVote: z.object({ opinion: z.string() }).nullable().optional(),
  argumentsFor: z.array(argumentInIdea).optional(),
  argumentsAgainst: z.array(argumentInIdea).optional(),
});
export type IdeaRecord = z.infer<typeof ideaRecord>;
