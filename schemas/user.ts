/**
 * User bodies and records (CONTRACT "Records": `{id, siteId, role, email, firstName, lastName,
 * nickName, displayName, extraData, listableByRole, detailsViewableByRole, createdAt, updatedAt}`,
 * `externalUserId` for admins only; the limited view is exactly `{id, role, displayName, nickName}`).
 * `gender` and `signedUpForNewsletter` are the spec's other per-site user fields.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { ROLES } from '#schemas/roles';
import { pathId } from '#schemas/common';

export const userParams = z.object({ siteId: pathId, userId: pathId });

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
