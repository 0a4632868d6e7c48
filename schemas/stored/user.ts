/**
 * Site users (`USER#<u>`), their auth-server link items (`EXTUSER#<key>`) and role floors
 * (`ROLEFLOOR#<hash>`): lib/store/users/users.ts and lib/store/users/role-floor.ts.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { ROLES } from '#schemas/roles';
import { storedInstant, storedInt } from '#schemas/stored/read';

const text = z.optional(z.nullable(z.string()));

/** Loose in its type too: the user record passes through fields the auth server cached on it. */
export const storedUser = z.looseObject({
  id: storedInt,
  siteId: storedInt,
  role: z.enum(ROLES),
  email: text,
  firstName: text,
  lastName: text,
  nickName: text,
  /** The user's extraData as stored on the auth server: every site's entries (read per site). */
  extraData: z.optional(z.record(z.string(), z.unknown())),
  /** The auth server's id of this user (as a string); null/absent: a local-only user. */
  externalUserId: text,
  /** The normalised `auth-server-url` the user is linked to. */
  authServer: text,
  // Free text as stored: the access rules treat an unknown value as the strictest (lib/users/public-view.ts).
  listableByRole: text,
  detailsViewableByRole: text,
  gender: text,
  signedUpForNewsletter: z.optional(z.nullable(z.boolean())),
  /** Set by anonymization; the caller resolution treats such a user as gone. */
  anonymizedAt: text,
  /** Last login or write on the site, to the day at least (lifecycle: anonymize-inactive). Absent on users stored before it. */
  lastActivityAt: text,
  /** When the inactivity warning was written to the outbox; cleared by new activity. */
  warnedAt: text,
  createdAt: storedInstant,
  updatedAt: storedInstant,
});
export type StoredUser = z.output<typeof storedUser>;

/** The link item: which site user an auth-server user is on this site. */
export const storedUserLink = z.object({ userId: storedInt });

/** A role floor: the role as the site last gave it (the login decides whether it is still a role). */
export const storedRoleFloor = z.object({ role: z.string() });

/**
 * What the migration (lib/store/users/migrate.ts) reads of a user stored before the lifecycle change:
 * it must read every user it may have to fix, so only what it uses is required.
 */
export const storedUserBeforeLifecycle = z.object({
  id: storedInt,
  createdAt: storedInstant,
  updatedAt: z.optional(storedInstant),
  lastActivityAt: text,
  anonymizedAt: text,
});
