/**
 * The API's own JWT (CONTRACT "Identity and roles"): HS256 only, `iss` participation-api, `exp`
 * required, 30 s clock leeway, valid only on the site it was issued for.
 *
 * Signed with the current token key and its `kid` in the header; verified with the key that `kid`
 * names among the current, next and previous keys (lib/config/secret-values.ts `tokenKeys`), so a key
 * is rotated without logging anybody out. A token without a `kid`, or with one no key has, is invalid.
 */
import { jwtVerify, SignJWT, errors as joseErrors, type JWTHeaderParameters } from 'jose';
import { env } from '#lib/config/env';
import { secret } from '#lib/config/secrets';
import type { SigningKey } from '#lib/config/secret-values';

export const JWT_ISSUER = 'participation-api';
const CLOCK_TOLERANCE_SECONDS = 30;

export interface TokenClaims {
  userId: number;
  siteId: number;
}

export async function issueToken(
  claims: TokenClaims,
  options: { ttlSeconds?: number; key?: SigningKey } = {},
): Promise<string> {
  const { kid, key } = options.key ?? secret('tokenKeys').current;
  return new SignJWT({ userId: claims.userId, siteId: claims.siteId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
    .setIssuer(JWT_ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (options.ttlSeconds ?? env().jwtTtlSeconds))
    .sign(key);
}

const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

class UnknownKeyId extends joseErrors.JOSEError {}

/** The key a token's `kid` names; none for a missing or unknown one. */
function verificationKey(header: JWTHeaderParameters): Uint8Array {
  const { current, next, previous } = secret('tokenKeys');
  const match = [current, next, previous].find((k) => k !== null && header.kid !== undefined && k.kid === header.kid);
  if (!match) throw new UnknownKeyId('no key with this kid');
  return match.key;
}

/** Returns the claims, or null for any token that is not ours, not valid or not for this site. */
export async function verifyToken(token: string, siteId: number | undefined): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, verificationKey, {
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
