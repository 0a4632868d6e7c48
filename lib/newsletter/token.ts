/**
 * Confirm tokens. Two requirements pull against each other: the token must be "stored only as a
 * hash", yet admins must be able to read pending tokens so an external mailer can send them (the
 * service sends no e-mail). Both hold because the token is never stored at all; it is DERIVED:
 *
 *   token = base64url(HMAC-SHA256(server key, "newsletter-confirm:<siteId>:<signupId>:<salt>"))
 *
 * - `salt` is 128 random bits stored on the signup, so a token carries at least 128 bits nobody can
 *   guess; without the server secret, salt and ids are worthless (a table dump yields no tokens).
 * - Only sha256(token) is stored, as the key of the lookup item; confirming hashes the presented token
 *   and reads that key, so an unknown token finds nothing and guessing is infeasible.
 * - Admins' list reads recompute the token from the salt.
 * - The `newsletter-confirm:` prefix separates these MACs from any other use of the secret (JWTs sign
 *   a different structure with it).
 *
 * Consequence: replacing the server key (not the token keys, which rotate apart from it) changes the recomputed token of every pending signup. The hashes of
 * tokens already sent keep their lookup items, but those tokens no longer match the recomputed one, so
 * pending signups must be confirmed before a rotation (or signed up again after deleting them).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { secret } from '#lib/config/secrets';

export const newSalt = (): string => randomBytes(16).toString('base64url');

export function deriveToken(siteId: number, signupId: number, salt: string): string {
  return createHmac('sha256', secret('serverKey'))
    .update(`newsletter-confirm:${siteId}:${signupId}:${salt}`)
    .digest('base64url');
}

/** The stored form of a token: hex sha256 (a fast hash suffices for 128+ random bits). */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Constant-time comparison of a presented token with the expected one. */
export function tokensEqual(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // The length of a token is no secret (always 43 characters); only the content is compared in constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}
