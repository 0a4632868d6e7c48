/**
 * The OAuth `state` (lib/oauth/state.ts) and the login cookie that binds it to a browser
 * (lib/oauth/login-cookie.ts), written as the forgeries they stop: another site's state, a stale or
 * altered one, an API token passed as a state, a state without its browser's cookie.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { issueToken } from '#lib/auth/jwt';
import { clearLoginCookie, loginCookie, setLoginCookie } from '#lib/oauth/login-cookie';
import { assertStateBrowser, newLoginNonce, nonceHashOf, signState, verifyState } from '#lib/oauth/state';
import { tamperMiddle } from '#tests/support/tamper';

const claims = { siteId: 7, redirectUrl: 'https://city.example/after', oauth: 'default', callback: 'https://api.example/oauth/site/7/digest-login' };

describe('the login state', () => {
  it('comes back with its claims on its own site, with the nonce hash of its browser', async () => {
    const nonce = newLoginNonce();
    const verified = await verifyState(await signState(claims, 600, nonce), 7);
    expect(verified).toMatchObject({ ...claims, nonceHash: nonceHashOf(nonce) });
    expect(verified.exp).toBeGreaterThan(Date.now() / 1000 + 500);
    expect(() => assertStateBrowser(verified, nonce)).not.toThrow();
  });

  it('is a 400 on another site', async () => {
    await expect(verifyState(await signState(claims), 8)).rejects.toThrow('The login state belongs to another site');
  });

  it('is a 400 once expired (past 30 s of clock tolerance), altered, or not a state at all', async () => {
    const expired = await signState(claims, -31);
    await expect(verifyState(expired, 7)).rejects.toThrow(/invalid or expired/);
    const state = await signState(claims);
    const [head, body, sig] = state.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, siteId: 8 })).toString('base64url')}.${sig}`;
    await expect(verifyState(forged, 8)).rejects.toThrow(/invalid or expired/);
    await expect(verifyState(`${head}.${body}.${tamperMiddle(sig!)}`, 7)).rejects.toThrow(/invalid or expired/);
    await expect(verifyState('x', 7)).rejects.toThrow(/invalid or expired/);
  });

  it('an API token (signed with the API key) never passes as a state, nor a state signed with a guessable key', async () => {
    const token = await issueToken({ userId: 1, siteId: 7 });
    await expect(verifyState(token, 7)).rejects.toThrow(/invalid or expired/);
    const guessed = await new SignJWT({ ...claims, nonceHash: 'x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'oauth-state+jwt' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('local-dev-jwt-secret-change-me-0123456789abcdef'));
    await expect(verifyState(guessed, 7)).rejects.toThrow(/invalid or expired/);
  });

  it('without the cookie of the browser it was issued to: 400, the same message for a missing and a wrong cookie', async () => {
    const verified = await verifyState(await signState(claims, 600, newLoginNonce()), 7);
    const message = 'This login was not started in this browser (or its cookie expired); please start the login again';
    expect(() => assertStateBrowser(verified, undefined)).toThrow(message);
    expect(() => assertStateBrowser(verified, newLoginNonce())).toThrow(message);
    expect(() => assertStateBrowser(verified, '')).toThrow(message);
  });

  it('nonces are 256 random bits, cookie-safe', () => {
    const a = newLoginNonce();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newLoginNonce()).not.toBe(a);
  });
});

describe('the login cookie', () => {
  it('over https: a __Host- cookie per site, Secure, Path=/', () => {
    expect(loginCookie('https://api.example/oauth/site/7/digest-login')).toEqual({ name: '__Host-participation_login_nonce_7', path: '/', maxAgeSeconds: 600, secure: true });
    expect(setLoginCookie('n', 'https://api.example/base/oauth/site/12/digest-login')).toBe('__Host-participation_login_nonce_12=n; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure');
    expect(clearLoginCookie('https://api.example/oauth/site/7/digest-login')).toBe('__Host-participation_login_nonce_7=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
  });

  it('over plain http on a local stage: no prefix, scoped to the site login paths (base path kept)', () => {
    expect(loginCookie('http://localhost:3000/base/oauth/site/7/digest-login')).toEqual({ name: 'participation_login_nonce', path: '/base/oauth/site/7/', maxAgeSeconds: 600, secure: false });
  });
});
