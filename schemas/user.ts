/**
 * User bodies and records (CONTRACT "Records": `{id, siteId, role, email, firstName, lastName,
 * nickName, displayName, extraData, listableByRole, detailsViewableByRole, createdAt, updatedAt}`,
 * `externalUserId` for admins only; the limited view is exactly `{id, role, displayName, nickName}`).
 * `gender` and `signedUpForNewsletter` are the spec's other per-site user fields.
 */
import * as z from 'zod';
import { ROLES } from '#lib/auth/roles';
import { pathId } from '#schemas/common';

export const userParams = z.object({ siteId: pathId, userId: pathId });
export type UserParams = z.infer<typeof userParams>;

const role = z.enum(ROLES);
/** Who may list / see a user, as OpenStad stores it: a role or `all`. Stored, not enforced (CONTRACT decides access). */
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
