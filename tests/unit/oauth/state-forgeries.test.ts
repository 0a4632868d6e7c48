/**
 * The login state (lib/oauth/state.ts) against forgeries that carry a VALID signature: what if the
 * state key leaked, or another token type came to be signed with it. Each claim the verifier requires
 * (typ, issuer, audience, exp, iat, the claim shapes) must then still be checked, not just the MAC.
 * The key is derived here as state.ts documents it (HMAC of the server key, JWT_SECRET locally, for this purpose only).
 * tests/unit/security/login-state.test.ts covers forgeries without the key.
 */
import { createHmac } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { secret } from '#lib/config/secrets';
import { JWT_ISSUER } from '#lib/auth/jwt';
import { loginCookie } from '#lib/oauth/login-cookie';
import { signState, STATE_AUDIENCE, STATE_TYP, verifyState } from '#lib/oauth/state';

const stateKey = new Uint8Array(createHmac('sha256', secret('serverKey')).update('participation-api oauth state v1').digest());
const claims = { siteId: 7, redirectUrl: 'https://city.example/after', oauth: 'default', callback: 'https://api.example/oauth/site/7/digest-login', nonceHash: 'h'.repeat(43) };
const now = () => Math.floor(Date.now() / 1000);

/** A state signed with the real state key; each part can be changed. */
function forged({ payload = claims as Record<string, unknown>, typ = STATE_TYP, issuer = JWT_ISSUER, audience = STATE_AUDIENCE, iat = true, exp = true } = {}) {
  let jwt = new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ }).setIssuer(issuer).setAudience(audience);
  if (iat) jwt = jwt.setIssuedAt();
  if (exp) jwt = jwt.setExpirationTime(now() + 600);
  return jwt.sign(stateKey);
}

describe('a state', () => {
  it('is an oauth-state JWT for its own audience, signed with the state key', async () => {
    const state = await signState(claims);
    expect(decodeProtectedHeader(state)).toEqual({ alg: 'HS256', typ: 'oauth-state+jwt' });
    expect(decodeJwt(state)).toMatchObject({ iss: 'participation-api', aud: 'participation-api/oauth-state' });
    await expect(jwtVerify(state, stateKey)).resolves.toBeDefined();
    await expect(verifyState(await forged(), 7)).resolves.toMatchObject({ siteId: 7 });
  });
});

describe('a forgery with a valid signature', () => {
  const invalidOrExpired = 'The login state is invalid or expired; please start the login again';

  it('is refused with another typ, issuer or audience', async () => {
    await expect(verifyState(await forged({ typ: 'JWT' }), 7)).rejects.toThrow(invalidOrExpired);
    await expect(verifyState(await forged({ issuer: 'someone-else' }), 7)).rejects.toThrow(invalidOrExpired);
    await expect(verifyState(await forged({ audience: 'participation-api' }), 7)).rejects.toThrow(invalidOrExpired);
  });

  it('is refused without exp (it would never expire) or without iat', async () => {
    await expect(verifyState(await forged({ exp: false }), 7)).rejects.toThrow(invalidOrExpired);
    await expect(verifyState(await forged({ iat: false }), 7)).rejects.toThrow(invalidOrExpired);
  });

  it('is refused when its claims are not a state\'s (no callback, a site id that is not one)', async () => {
    const { callback: _callback, ...withoutCallback } = claims;
    const invalid = 'The login state is invalid; please start the login again';
    await expect(verifyState(await forged({ payload: withoutCallback }), 7)).rejects.toThrow(invalid);
    await expect(verifyState(await forged({ payload: { ...claims, siteId: '7' } }), 7)).rejects.toThrow(invalid);
  });
});

describe('the login cookie name over https', () => {
  it('carries the site id of a digest-login path, else 0', () => {
    expect(loginCookie('https://api.example/prod/oauth/site/12/digest-login').name).toBe('__Host-participation_login_nonce_12');
    expect(loginCookie('https://api.example/somewhere/else').name).toBe('__Host-participation_login_nonce_0');
    expect(loginCookie('https://api.example/oauth/site/12/more/digest-login').name).toBe('__Host-participation_login_nonce_0');
  });
});
