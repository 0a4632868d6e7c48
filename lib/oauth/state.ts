/**
 * The OAuth `state` of a login: a signed, expiring JWT that carries where the login goes back to. It
 * replaces a server-side session (the API has none) and is what makes digest-login refuse a forged,
 * altered, stale or other-site callback (400).
 *
 * It can never pass as an API token: it is signed with a key derived from the server key (JWT_SECRET locally) for this purpose
 * only (so jwtVerify with the API key fails), and it also has its own `typ` and audience and no
 * `userId`. Ten minutes is enough to log in.
 *
 * Bound to the browser and single-use (CONTRACT "Decided details, security"): the login start puts a
 * random nonce in an HttpOnly cookie (lib/oauth/login-cookie.ts) and only its SHA-256 in the state, so
 * a state is worth nothing without the cookie of the browser it was issued to (no login CSRF: an
 * attacker cannot make a victim's browser finish the attacker's login), and digest-login records the
 * hash as used (lib/store/login/login-states.ts), so a replay is refused even from that browser.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { secret } from '#lib/config/secrets';
import { badRequest } from '#lib/errors';
import { JWT_ISSUER } from '#lib/auth/jwt';
import { loginStateClaims, type LoginStateClaims } from '#schemas/oauth';

export const STATE_TYP = 'oauth-state+jwt';
export const STATE_AUDIENCE = 'participation-api/oauth-state';
export const STATE_TTL_SECONDS = 600;

let cached: { from: Uint8Array; key: Uint8Array } | undefined;
/** HMAC(server key, purpose): a separate key, so a state and an API token can never stand in for each other. */
function stateKey(): Uint8Array {
  const root = secret('serverKey');
  if (cached?.from !== root) cached = { from: root, key: new Uint8Array(createHmac('sha256', root).update('participation-api oauth state v1').digest()) };
  return cached.key;
}

/** The browser's half of a login: 256 random bits, base64url (cookie-safe). */
export const newLoginNonce = (): string => randomBytes(32).toString('base64url');

/** What the state carries of the nonce: its SHA-256, base64url. */
export const nonceHashOf = (nonce: string): string => createHash('sha256').update(nonce).digest('base64url');

/** A signed state for the browser that holds `nonce` (a fresh one unless given). */
export async function signState(
  claims: Omit<LoginStateClaims, 'nonceHash'>,
  ttlSeconds = STATE_TTL_SECONDS,
  nonce: string = newLoginNonce(),
): Promise<string> {
  return new SignJWT({ ...claims, nonceHash: nonceHashOf(nonce) })
    .setProtectedHeader({ alg: 'HS256', typ: STATE_TYP })
    .setIssuer(JWT_ISSUER)
    .setAudience(STATE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(stateKey());
}

/** The claims of a state issued for this site; 400 for anything else. */
export async function verifyState(state: string, siteId: number): Promise<LoginStateClaims & { exp: number }> {
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
  return { ...claims.data, exp: (payload as { exp: number }).exp };
}

/**
 * 400 unless the browser brought the cookie of the login this state belongs to. The same message for
 * a missing and a wrong cookie: a caller learns nothing about whose state it holds.
 */
export function assertStateBrowser(claims: LoginStateClaims, cookieNonce: string | undefined): void {
  const expected = Buffer.from(claims.nonceHash);
  const actual = Buffer.from(cookieNonce ? nonceHashOf(cookieNonce) : '');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw badRequest('This login was not started in this browser (or its cookie expired); please start the login again');
  }
}
