/**
 * User bodies and records (CONTRACT "Records": `{id, siteId, role, email, firstName, lastName,
 * nickName, displayName, extraData, listableByRole, detailsViewableByRole, createdAt, updatedAt}`,
 * `externalUserId` for admins only; the limited view is exactly `{id, role, displayName, nickName}`).
 * `gender` and `signedUpForNewsletter` are the spec's other per-site user fields.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { ROLES } from '#schemas/roles';
import { argumentRecord } from '#schemas/argument';
import { pathId, queryFlagOrUndefined } from '#schemas/common';
import { contentRecordSchema } from '#schemas/content-item';
import { ideaRecord } from '#schemas/idea';
import { voteRecordSchema } from '#schemas/votes';

export const userParams = z.object({ siteId: pathId, userId: pathId });
export type UserParams = z.infer<typeof userParams>;

const role = z.enum(ROLES);
/** Who may list / see the details of a user, as OpenStad stores it: a role or `all` (enforced in lib/auth/access.ts `user`). */
const visibility = z.nullable(z.enum([...ROLES, 'all']));
const name = z.nullable(z.string().check(z.trim(), z.maxLength(255)));

const userFields = {
  firstName: z.optional(name),
  lastName: z.optional(name),
  nickName: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(64)))),
  role: z.optional(role),
  listableByRole: z.optional(visibility),
  detailsViewableByRole: z.optional(visibility),
  gender: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(64)))),
  signedUpForNewsletter: z.optional(z.nullable(z.boolean())),
  /** Checked by the extraData engine against `config.users.extraData` (lib/users/extra-data.ts). */
  extraData: z.optional(z.unknown()),
};

export const createUserBody = z.object({ email: z.email().check(z.maxLength(254)), ...userFields });
export type CreateUserBody = z.infer<typeof createUserBody>;

/** PUT is partial: absent fields stay; extraData merges key by key. */
export const updateUserBody = z.object({ email: z.optional(z.email().check(z.maxLength(254))), ...userFields });
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const userRecord = z.object({
  id: z.int(),
  siteId: z.int(),
  role,
  email: z.nullable(z.string()),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  nickName: z.nullable(z.string()),
  displayName: z.string(),
  extraData: z.record(z.string(), z.unknown()),
  listableByRole: z.nullable(z.string()),
  detailsViewableByRole: z.nullable(z.string()),
  gender: z.nullable(z.string()),
  signedUpForNewsletter: z.nullable(z.boolean()),
  externalUserId: z.optional(z.nullable(z.string())),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

export const publicUserRecord = z.object({
  id: z.int(),
  role: z.string(),
  displayName: z.string(),
  nickName: z.nullable(z.string()),
});

/**
 * `GET .../user/:USER_ID/activity`: `includeOtherSites` defaults to true; of the four kinds, those
 * given decide and the others are off, and when none is given all four are on (lib/users/activity.ts).
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
