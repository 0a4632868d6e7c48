/**
 * Idea paths, queries and record (CONTRACT "Records": `{id, siteId, userId, title, summary,
 * description, status, budget, extraData, createdAt, updatedAt}` plus what the include flags add).
 * The body schemas are the shared content-item ones, built with the site's `config.ideas` limits.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, pathId, queryFlag } from '#schemas/common';
import { contentIncludeFlags, contentRecordSchema } from '#schemas/content-item';
import { checkDiscoveryQuery, discoveryQuery, location } from '#schemas/discovery';

export const ideaParams = z.object({ siteId: pathId, ideaId: pathId });
export type IdeaParams = z.infer<typeof ideaParams>;

const ideaSorts = ['createdate_desc', 'createdate_asc', 'votes_desc', 'votes_asc'] as const;

export const ideaIncludeQuery = z.object({
  ...contentIncludeFlags,
  includeArguments: queryFlag,
  includeVoteCount: queryFlag,
  includeUserVote: queryFlag,
  /** `argCount`: the idea's arguments, replies included (from its tally item: no read per idea). */
  includeArgsCount: queryFlag,
});
export type IdeaIncludes = z.infer<typeof ideaIncludeQuery>;

/** `distance` orders by the distance from `near` (discovery). */
const ideaListSorts = [...ideaSorts, 'distance'] as const;

export const listIdeasQuery = z
  .extend(ideaIncludeQuery, {
    ...pageQuery,
    selectRunning: queryFlag,
    sort: z.pipe(
      z.optional(z.enum(ideaListSorts, { error: `must be one of ${ideaListSorts.join(', ')}` })),
      z.transform((s) => s ?? 'createdate_desc'),
    ),
    // Discovery filters.
    ...discoveryQuery,
  })
  .check(z.superRefine(checkDiscoveryQuery));
export type ListIdeasQuery = z.infer<typeof listIdeasQuery>;

/** An argument as `includeArguments` shows it (the record of lib/arguments/record.ts). */
const argumentInIdea = z.object({
  id: z.int(),
  siteId: z.int(),
  ideaId: z.int(),
  userId: z.nullable(z.int()),
  parentId: z.nullable(z.int()),
  sentiment: z.enum(['for', 'against']),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ideaRecord = z.extend(contentRecordSchema, {
  tags: z.array(z.int()),
  location: z.nullable(location),
  yes: z.optional(z.int()),
  no: z.optional(z.int()),
  /** With the counts: min(100, round(100 * yes / ideas.minimumYesVotes)) (lifecycle). */
  progress: z.optional(z.int().check(z.minimum(0), z.maximum(100))),
  userVote: z.optional(z.nullable(z.object({ opinion: z.string() }))),
  argumentsFor: z.optional(z.array(argumentInIdea)),
  argumentsAgainst: z.optional(z.array(argumentInIdea)),
  /** With `includeArgsCount`: the number of its arguments, replies included. */
  argCount: z.optional(z.int().check(z.minimum(0))),
  /** On reads: whether this caller's update / delete of the idea would be allowed (the same rule the writes apply). */
  can: z.optional(z.object({ edit: z.boolean(), delete: z.boolean() })),
  /** When the idea was published: its creation here; an imported OpenStad idea keeps its own. */
  publishDate: z.nullable(z.string()),
});
export type IdeaRecord = z.infer<typeof ideaRecord>;
