/**
 * A user's activity and what anonymizing them affects (CONTRACT "Activity", "Anonymization"). Apart
 * from schemas/user.ts so the user CRUD functions do not bundle the idea, argument and vote records.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { argumentRecord } from '#schemas/argument';
import { queryFlagOrUndefined } from '#schemas/common';
import { contentRecordSchema } from '#schemas/content-item';
import { ideaRecord } from '#schemas/idea';
import { userRecord } from '#schemas/user';
import { voteRecordSchema } from '#schemas/votes';

/**
 * `GET .../user/:USER_ID/activity`: `includeOtherSites` defaults to true; of the four kinds, those
 * given decide and the others are off, and when none is given all four are on (lib/privacy/activity.ts).
 */
export const activityQuery = z.object({
  includeOtherSites: queryFlagOrUndefined,
  includeIdeas: queryFlagOrUndefined,
  includeArticles: queryFlagOrUndefined,
  includeArguments: queryFlagOrUndefined,
  includeVotes: queryFlagOrUndefined,
});
export type ActivityQuery = z.infer<typeof activityQuery>;

/** A site as activity and anonymization show it (CONTRACT "Decided details"). */
export const siteSummary = z.object({ id: z.int(), name: z.string(), title: z.nullable(z.string()) });
export type SiteSummary = z.infer<typeof siteSummary>;

/** A vote as activity shows it: the vote record with the site it was cast on (activity spans sites). */
export const activityVote = z.extend(voteRecordSchema, { userId: z.int().check(z.positive()), siteId: z.int() });
export type ActivityVote = z.infer<typeof activityVote>;

/** CONTRACT "Activity": all five keys always present; a kind not asked for is an empty array. */
export const activityResponse = z.object({
  // The idea record (its include fields never set here), so the OpenAPI document points at `Idea`.
  ideas: z.array(ideaRecord),
  articles: z.array(contentRecordSchema),
  arguments: z.array(argumentRecord),
  votes: z.array(activityVote),
  sites: z.array(siteSummary),
});
export type ActivityResponse = z.infer<typeof activityResponse>;

/** CONTRACT "Anonymization": what is (or was, for `do-*`) affected, as it was before. */
export const anonymizationResponse = z.extend(activityResponse, { users: z.array(userRecord) });
export type AnonymizationResponse = z.infer<typeof anonymizationResponse>;
