/**
 * Hostile input on the login endpoints, against the local auth server (scripts/auth-server, started
 * as in tests/integration/oauth): forged, expired, foreign and tampered login states, codes the
 * auth server never issued, open-redirect attempts, unknown oauth entries and bad Host headers. Also
 * user creation on a site linked to that auth server (tests/integration/hostile/users.test.ts covers
 * the users endpoints on a site without one).
 */
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueToken, JWT_ISSUER } from '#lib/auth/jwt';
import { signState, STATE_AUDIENCE, STATE_TYP } from '#lib/oauth/state';
import { hostileSuite } from '#tests/support/hostile/suite';
import { hostileSiteConfig } from '#tests/support/hostile/world';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { API_HOST, login, oauthConfig, startTestAuthServer } from '../oauth/login-helpers.ts';
import { tamperMiddle } from '#tests/support/tamper';

const EMAIL = 'hostile-login@example.org';
let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer([{ email: EMAIL, firstName: 'Hos', lastName: 'Tile' }]);
});
afterAll(async () => {
  await auth.stop();
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** The state key as lib/oauth/state.ts derives it, to sign states that are well signed but wrong inside. */
const stateKey = () => new Uint8Array(createHmac('sha256', process.env.JWT_SECRET!).update('participation-api oauth state v1').digest());

const stateWith = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256', typ: STATE_TYP }) =>
  new SignJWT(claims).setProtectedHeader(header as { alg: string }).setIssuer(JWT_ISSUER).setAudience(STATE_AUDIENCE).setIssuedAt().setExpirationTime(now() + 600).sign(stateKey());

// User creation on a site with an auth server goes there first: a refused create must not reach it.
const ctx = hostileSuite(['oauthLogin', 'oauthDigestLogin', 'oauthMe', 'oauthLogout', 'userCreate'], {
  afterProperties: {
    name: "no refused request reached the auth server's user API",
    check: () => {
      expect(auth.control.requests.filter((r) => r.path.startsWith('/api/admin'))).toEqual([]);
    },
  },
  config: () => ({ ...hostileSiteConfig, oauth: { default: oauthConfig(auth.url) } }),
  extra: async ({ w, other }) => {
    const callback = `https://${API_HOST}/oauth/site/${w.siteId}/digest-login`;
    const claims = { siteId: w.siteId, redirectUrl: 'https://frontend.example.org/after', oauth: 'default', callback };
    const state = await signState(claims);
    const [header, payload, signature] = state.split('.') as [string, string, string];
    const bad = [
      'x',
      await signState({ ...claims, siteId: other.siteId }),
      await signState(claims, -120),
      await signState({ ...claims, redirectUrl: 'https://evil.example/' }),
      await signState({ ...claims, oauth: 'nope' }),
      await signState({ ...claims, oauth: '__proto__' }),
      await issueToken({ userId: w.member.id, siteId: w.siteId }),
      `${b64({ alg: 'none', typ: STATE_TYP })}.${payload}.`,
      `${header}.${b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), redirectUrl: 'https://evil.example/' })}.${signature}`,
      `${header}.${payload}.${tamperMiddle(signature)}`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: STATE_TYP }).setIssuer(JWT_ISSUER).setAudience(STATE_AUDIENCE).setIssuedAt().setExpirationTime(now() + 600).sign(new TextEncoder().encode(process.env.JWT_SECRET)),
      await stateWith({ ...claims, siteId: String(w.siteId) }),
      await stateWith({ siteId: w.siteId }),
      await stateWith({ ...claims, redirectUrl: 5 }),
      await stateWith(claims, { alg: 'HS256', typ: 'JWT' }),
      await stateWith(claims, { alg: 'HS512', typ: STATE_TYP }),
      'x'.repeat(8193),
    ];
    return { state, badStates: bad.join(' ') };
  },
});

it('a real login through the local auth server succeeds (so the digest-login mutations are meaningful)', async () => {
  const result = await login(ctx().w.siteId, EMAIL);
  expect(result.done.status, JSON.stringify(result.done.body)).toBe(302);
  expect(result.jwt).toEqual(expect.any(String));
});
