/**
 * The API's own JWT (CONTRACT "Identity and roles"): HS256 only, `iss` participation-api, `exp`
 * required, 30 s clock leeway, valid only on the site it was issued for.
 */
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import { env } from '#lib/config/env';

export const JWT_ISSUER = 'participation-api';
const CLOCK_TOLERANCE_SECONDS = 30;

export interface TokenClaims {
  userId: number;
  siteId: number;
}

export async function issueToken(
  claims: TokenClaims,
  options: { ttlSeconds?: number; secret?: Uint8Array } = {},
): Promise<string> {
  const { jwtSecret, jwtTtlSeconds } = env();
  return new SignJWT({ userId: claims.userId, siteId: claims.siteId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(JWT_ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (options.ttlSeconds ?? jwtTtlSeconds))
    .sign(options.secret ?? jwtSecret);
}

const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Returns the claims, or null for any token that is not ours, not valid or not for this site. */
export async function verifyToken(token: string, siteId: number | undefined): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, env().jwtSecret, {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      requiredClaims: ['exp', 'iat'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    if (!isPositiveInt(payload.userId) || !isPositiveInt(payload.siteId)) return null;
    if (siteId === undefined || payload.siteId !== siteId) return null;
    return { userId: payload.userId, siteId: payload.siteId };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
