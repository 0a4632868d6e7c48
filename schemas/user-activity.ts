/**
 * User activity and anonymization (spec "User", CONTRACT "Records"):
 * - `GET .../user/:USER_ID/activity` -> `{ideas, articles, arguments, votes, sites}`, all five keys always
 *   present, a kind not asked for is an empty array, `sites` holds `{id, name, title}`;
 * - `will-anonymize[all]` (GET or PUT) and `do-anonymize[all]` (PUT) -> `{ideas, articles, arguments,
 *   votes, users, sites}`: the records as they were before.
 * The OpenAPI document describes these endpoints from here; the handlers can share them.
 */
import * as z from 'zod';
import { queryFlagOrUndefined } from '#schemas/common';
import { ideaRecord } from '#schemas/idea';
import { articleRecord } from '#schemas/article';
import { argumentRecord } from '#schemas/argument';
import { voteRecordSchema } from '#schemas/votes';
import { userRecord } from '#schemas/user';

/** `includeOtherSites` defaults to true; when none of the four include flags is given, all are on. */
export const activityQuery = z.object({
  includeOtherSites: queryFlagOrUndefined,
  includeIdeas: queryFlagOrUndefined,
  includeArticles: queryFlagOrUndefined,
  includeArguments: queryFlagOrUndefined,
  includeVotes: queryFlagOrUndefined,
});
export type ActivityQuery = z.infer<typeof activityQuery>;

/** A site as activity and anonymization name it (never its config). */
export const siteSummaryRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string().nullable(),
});
export type SiteSummaryRecord = z.infer<typeof siteSummaryRecord>;

export const activityRecord = z.object({
  ideas: z.array(ideaRecord),
  articles: z.array(articleRecord),
  arguments: z.array(argumentRecord),
  votes: z.array(voteRecordSchema),
  sites: z.array(siteSummaryRecord),
});
export type ActivityRecord = z.infer<typeof activityRecord>;

export const anonymizeReport = activityRecord.extend({ users: z.array(userRecord) });
export type AnonymizeReport = z.infer<typeof anonymizeReport>;
