/**
 * Who is calling: nobody, a service token (admin everywhere) or a site user whose role is read from
 * the user record on every request, so a role change applies at once (CONTRACT).
 */
import { decodeJwt } from 'jose';
import { unauthorized } from '#lib/errors';
import { isServiceToken } from '#lib/auth/service-tokens';
import { verifyToken, type TokenClaims } from '#lib/auth/jwt';
import { isRole, type Role } from '#lib/auth/roles';
import { getUser, type UserItem } from '#lib/store/users/users';

export type Caller =
  | { kind: 'none'; role: undefined; userId: undefined }
  | { kind: 'service'; role: 'admin'; userId: undefined }
  | { kind: 'user'; role: Role; userId: number; siteId: number; user: UserItem };

export const NOBODY: Caller = { kind: 'none', role: undefined, userId: undefined };
const SERVICE: Caller = { kind: 'service', role: 'admin', userId: undefined };

/** The bearer token from `X-Authorization` (or, failing that, `Authorization`); the scheme is case-insensitive. */
export function bearerToken(headers: Record<string, string | undefined>): string | undefined {
  const candidates = [headers['x-authorization'], headers['authorization']];
  for (const value of candidates) {
    if (value === undefined) continue;
    const match = /^bearer\s+(\S+)\s*$/i.exec(value);
    if (match?.[1]) return match[1];
    // `Authorization: Basic ...` belongs to site Basic Auth; anything else in X-Authorization is malformed.
    if (value === headers['x-authorization']) throw unauthorized('X-Authorization must be "Bearer <token>"');
  }
  return undefined;
}

/** What the token says, before anything is read: checked once, early, so its user can be prefetched. */
export type Identity =
  | { kind: 'none' }
  | { kind: 'service' }
  | { kind: 'user'; claims: TokenClaims }
  /** A bad token: its 401 is thrown where the caller is resolved, after the checks that come first. */
  | { kind: 'invalid'; error: unknown };

/**
 * @param siteId the site of the path, or undefined on site-less routes (`/api/site/`), where a user
 *   token is verified against its own site and never grants more than its user's role there.
 */
export async function identify(headers: Record<string, string | undefined>, siteId: number | undefined): Promise<Identity> {
  try {
    const token = bearerToken(headers);
    if (token === undefined) return { kind: 'none' };
    if (token.length > 4096) throw unauthorized('Invalid token');
    if (isServiceToken(token)) return { kind: 'service' };
    const claims = await verifyToken(token, siteId ?? siteIdOf(token));
    if (!claims) throw unauthorized('Invalid or expired token');
    return { kind: 'user', claims };
  } catch (error) {
    return { kind: 'invalid', error };
  }
}

/** The site user a token names (verified), for the request's first read; undefined for anyone else. */
export const tokenUser = (identity: Identity): TokenClaims | undefined => (identity.kind === 'user' ? identity.claims : undefined);

/**
 * The caller, with the user's role read from its record (one read, or none when the request
 * prefetched it). `identified`: the token as `identify` already checked it.
 */
export async function resolveCaller(
  headers: Record<string, string | undefined>,
  siteId: number | undefined,
  identified?: Identity,
): Promise<Caller> {
  const identity = identified ?? (await identify(headers, siteId));
  switch (identity.kind) {
    case 'none':
      return NOBODY;
    case 'service':
      return SERVICE;
    case 'invalid':
      throw identity.error;
    case 'user': {
      const { claims } = identity;
      const user = await getUser(claims.siteId, claims.userId);
      if (!user || !isRole(user.role) || user.anonymizedAt) throw unauthorized('The user of this token no longer exists');
      return { kind: 'user', role: user.role, userId: user.id, siteId: claims.siteId, user };
    }
  }
}

/** The unverified `siteId` claim, used only to pick which site a site-less route verifies against. */
function siteIdOf(token: string): number | undefined {
  try {
    const { siteId } = decodeJwt(token);
    return typeof siteId === 'number' ? siteId : undefined;
  } catch {
    return undefined;
  }
}
