/**
 * Newsletter signup bodies, query and record (CONTRACT "Records": `{id, siteId, email, firstName,
 * lastName, confirmed, createdAt}`; POST body `{email, firstName?, lastName?}`; confirm body
 * `{confirmToken}`).
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { pageQuery, queryFlagOrUndefined } from '#schemas/common';

/** RFC 5321 caps a forward path at 256 octets including the angle brackets: 254 for the address. */
const EMAIL_MAX_LENGTH = 254;

/** Names are optional; `null` is accepted as "not given", like an absent field. */
const name = z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(255))));

export const createSignupBody = z.object({
  // Trimmed before the check, and stored trimmed (but otherwise as sent).
  // `format` for the OpenAPI document only: the input side of a pipe would otherwise show a bare string.
  email: z.pipe(z.string().check(z.trim(), z.maxLength(EMAIL_MAX_LENGTH)), z.email()).register(z.globalRegistry, { format: 'email' }),
  firstName: name,
  lastName: name,
});
export type CreateSignupBody = z.infer<typeof createSignupBody>;

/**
 * Any string is accepted as a token: one that is not ours is simply unknown (404), so the shape of a
 * real token is not revealed by a 400. The cap only keeps hashing cheap.
 */
export const confirmBody = z.object({ confirmToken: z.string().check(z.minLength(1), z.maxLength(512)) });

/** `confirmed`: `1`/`true` only confirmed, `0`/`false` only unconfirmed, absent all. */
export const listSignupsQuery = z.object({ confirmed: queryFlagOrUndefined, ...pageQuery });

export const signupRecord = z.object({
  id: z.int(),
  siteId: z.int(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  confirmed: z.boolean(),
  createdAt: z.string(),
  /** Only on unconfirmed records in lists read by admins (CONTRACT "Decided details"). */
  confirmToken: z.optional(z.string()),
});
export type SignupRecord = z.infer<typeof signupRecord>;
