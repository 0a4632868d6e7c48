/**
 * User bodies and records (CONTRACT "Records": `{id, siteId, role, email, firstName, lastName,
 * nickName, displayName, extraData, listableByRole, detailsViewableByRole, createdAt, updatedAt}`,
 * `externalUserId` for admins only; the limited view is exactly `{id, role, displayName, nickName}`).
 * `gender` and `signedUpForNewsletter` are the spec's other per-site user fields.
 */
import * as z from 'zod';
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
const visibility = z.enum([...ROLES, 'all']).nullable();
const name = z.string().trim().max(255).nullable();

const userFields = {
  firstName: name.optional(),
  lastName: name.optional(),
  nickName: z.string().trim().max(64).nullable().optional(),
  role: role.optional(),
  listableByRole: visibility.optional(),
  detailsViewableByRole: visibility.optional(),
  gender: z.string().trim().max(64).nullable().optional(),
  signedUpForNewsletter: z.boolean().nullable().optional(),
  /** Checked by the extraData engine against `config.users.extraData` (lib/users/extra-data.ts). */
  extraData: z.unknown().optional(),
};

export const createUserBody = z.object({ email: z.email().max(254), ...userFields });
export type CreateUserBody = z.infer<typeof createUserBody>;

/** PUT is partial: absent fields stay; extraData merges key by key. */
export const updateUserBody = z.object({ email: z.email().max(254).optional(), ...userFields });
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const userRecord = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  role,
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  nickName: z.string().nullable(),
  displayName: z.string(),
  extraData: z.record(z.string(), z.unknown()),
  listableByRole: z.string().nullable(),
  detailsViewableByRole: z.string().nullable(),
  gender: z.string().nullable(),
  signedUpForNewsletter: z.boolean().nullable(),
  externalUserId: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

export const publicUserRecord = z.object({
  id: z.number().int(),
  role: z.string(),
  displayName: z.string(),
  nickName: z.string().nullable(),
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
export const siteSummary = z.object({ id: z.number().int(), name: z.string(), title: z.string().nullable() });
export type SiteSummary = z.infer<typeof siteSummary>;

/** A vote as activity shows it: the vote record with the site it was cast on (activity spans sites). */
export const activityVote = voteRecordSchema.extend({ userId: z.number().int().positive(), siteId: z.number().int() });
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
export const anonymizationResponse = activityResponse.extend({ users: z.array(userRecord) });
export type AnonymizationResponse = z.infer<typeof anonymizationResponse>;
