/**
 * The OAuth `state` of a login: a signed, expiring JWT that carries where the login goes back to. It
 * replaces a server-side session (the API has none) and is what makes digest-login refuse a forged,
 * altered, stale or other-site callback (400).
 *
 * It can never pass as an API token: it is signed with a key derived from JWT_SECRET for this purpose
 * only (so jwtVerify with the API key fails), and it also has its own `typ` and audience and no
 * `userId`. Ten minutes is enough to log in and short enough to limit replays.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { env } from '#lib/config/env';
import { badRequest } from '#lib/http/errors';
import { JWT_ISSUER } from '#lib/auth/jwt';
import { loginStateClaims, type LoginStateClaims } from '#schemas/oauth';

export const STATE_TYP = 'oauth-state+jwt';
export const STATE_AUDIENCE = 'participation-api/oauth-state';
export const STATE_TTL_SECONDS = 600;

let cachedKey: Uint8Array | undefined;
/** HMAC(JWT_SECRET, purpose): a separate key, so a state and an API token can never stand in for each other. */
function stateKey(): Uint8Array {
  cachedKey ??= new Uint8Array(createHmac('sha256', env().jwtSecret).update('participation-api oauth state v1').digest());
  return cachedKey;
}

export async function signState(claims: Omit<LoginStateClaims, 'nonce'>, ttlSeconds = STATE_TTL_SECONDS): Promise<string> {
  return new SignJWT({ ...claims, nonce: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'HS256', typ: STATE_TYP })
    .setIssuer(JWT_ISSUER)
    .setAudience(STATE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(stateKey());
}

/** The claims of a state issued for this site; 400 for anything else. */
export async function verifyState(state: string, siteId: number): Promise<LoginStateClaims> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(state, stateKey(), {
      algorithms: ['HS256'],
      typ: STATE_TYP,
      issuer: JWT_ISSUER,
      audience: STATE_AUDIENCE,
      requiredClaims: ['exp', 'iat'],
      clockTolerance: 30,
    }));
  } catch {
    throw badRequest('The login state is invalid or expired; please start the login again');
  }
  const claims = loginStateClaims.safeParse(payload);
  if (!claims.success) throw badRequest('The login state is invalid; please start the login again');
  if (claims.data.siteId !== siteId) throw badRequest('The login state belongs to another site');
  return claims.data;
}
