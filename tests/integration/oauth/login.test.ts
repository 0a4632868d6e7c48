import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { freePort } from '../../../scripts/dynamo-local.ts';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as digestHandler } from '../../../functions/oauth/digest-login.ts';
import { handler as meHandler } from '../../../functions/oauth/me.ts';
import { handler as logoutHandler } from '../../../functions/oauth/logout.ts';
import { handler as listUsers } from '../../../functions/users/list.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { signState } from '#lib/oauth/state';
import { issueToken } from '#lib/auth/jwt';
import { AUTH_SERVER_TIMEOUT_MS } from '#lib/auth-server/client';
import { loginCookie } from '#lib/oauth/login-cookie';
import {
  API_HOST,
  cookieJar,
  createLoginSite,
  FRONTEND,
  login,
  OTHER_CLIENT,
  oauthConfig,
  startTestAuthServer,
} from './login-helpers.ts';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';
import type { UserRecord } from '#schemas/user';
import { tamperMiddle } from '#tests/support/tamper';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer([
    { email: 'ann@example.org', firstName: 'Ann', lastName: 'Example' },
    { email: 'mod@example.org', firstName: 'Mo', lastName: 'Derator', role: 'moderator' },
    { email: 'odd@example.org', firstName: 'Odd', lastName: 'Role', role: 'superuser' },
  ]);
});
afterAll(async () => {
  await auth.stop();
});
afterEach(() => {
  auth.control.failures = {};
  auth.control.delays = {};
  auth.control.userinfoWithoutId = false;
});

/** Starts a login and lets the auth server approve it: the callback the browser would bring back. */
async function codeFor(siteId: number, email = 'ann@example.org') {
  const start = await invoke(loginHandler, { params: { siteId }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: API_HOST } });
  const url = new URL(start.headers.location!);
  url.searchParams.set('login_hint', email);
  const answer = await fetch(url, { redirect: 'manual' });
  const callback = new URL(answer.headers.get('location')!);
  return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')!, callback, cookies: cookieJar(start.cookies) };
}

/** A state for this site signed as the login start would, with the cookie its browser holds. */
async function stateWithCookie(siteId: number, ttlSeconds?: number) {
  const nonce = 'a-test-nonce-0123456789';
  const callback = `https://${API_HOST}/oauth/site/${siteId}/digest-login`;
  const state = await signState({ siteId, redirectUrl: `${FRONTEND}/`, oauth: 'default', callback }, ttlSeconds, nonce);
  return { state, cookies: [`${loginCookie(callback).name}=${nonce}`] };
}

const usersOf = async (siteId: number) => (await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId }, token: SERVICE_TOKEN })).body.records;

describe('login', () => {
  it('redirects to the auth server with code flow parameters and a state', async () => {
    const site = await createLoginSite(auth);
    const res = await invoke(loginHandler, {
      params: { siteId: site.id },
      query: { redirectUrl: `${FRONTEND}/x` },
      headers: { host: API_HOST },
    });
    expect(res.status).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = new URL(res.headers.location!);
    expect(location.origin + location.pathname).toBe(`${auth.url}/dialog/authorize`);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('client_id')).toBe('site-client');
    expect(location.searchParams.get('redirect_uri')).toBe(`https://${API_HOST}/oauth/site/${site.id}/digest-login`);
    expect(location.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('builds redirect_uri from Host and x-forwarded-proto', async () => {
    const site = await createLoginSite(auth);
    const local = await invoke(loginHandler, {
      params: { siteId: site.id },
      query: { redirectUrl: `${FRONTEND}/x` },
      headers: { host: 'localhost:3000' },
    });
    expect(new URL(local.headers.location!).searchParams.get('redirect_uri')).toBe(`http://localhost:3000/oauth/site/${site.id}/digest-login`);
    const proxied = await invoke(loginHandler, {
      params: { siteId: site.id },
      query: { redirectUrl: `${FRONTEND}/x` },
      headers: { host: 'api.example.test', 'x-forwarded-proto': 'http' },
    });
    expect(new URL(proxied.headers.location!).searchParams.get('redirect_uri')).toBe(`http://api.example.test/oauth/site/${site.id}/digest-login`);
  });

  it('logs a new person in: site user created, JWT in the redirect, and the JWT works on /me', async () => {
    const site = await createLoginSite(auth);
    const { done, jwt } = await login(site.id, 'ann@example.org');
    expect(done.status).toBe(302);
    const back = new URL(done.headers.location!);
    expect(back.origin + back.pathname).toBe(`${FRONTEND}/after-login`);
    expect(back.searchParams.get('tab')).toBe('2');
    expect(jwt).toBeTruthy();

    const me = await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: jwt! });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      siteId: site.id,
      role: 'member',
      email: 'ann@example.org',
      firstName: 'Ann',
      lastName: 'Example',
      displayName: 'Ann Example',
      nickName: null,
      extraData: {},
    });
    expect(me.body).not.toHaveProperty('externalUserId');
    const [user] = await usersOf(site.id);
    expect(user).toMatchObject({ id: me.body.id, externalUserId: String(auth.control.userByEmail('ann@example.org')!.id) });
  });

  it('finds the same site user on the next login and refreshes it from the auth server', async () => {
    const site = await createLoginSite(auth);
    const first = await login(site.id, 'ann@example.org');
    const firstMe = await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: first.jwt! });
    auth.control.userByEmail('ann@example.org')!.lastName = 'Renamed';
    const second = await login(site.id, 'ann@example.org');
    const secondMe = await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: second.jwt! });
    expect(secondMe.body.id).toBe(firstMe.body.id);
    expect(secondMe.body.lastName).toBe('Renamed');
    expect(await usersOf(site.id)).toHaveLength(1);
    auth.control.userByEmail('ann@example.org')!.lastName = 'Example';
  });

  it('takes the role from the auth server when the login creates the site user: one of ours, else member', async () => {
    const site = await createLoginSite(auth);
    const mod = await login(site.id, 'mod@example.org');
    expect((await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: mod.jwt! })).body.role).toBe('moderator');
    // The role applies: a moderator may list users.
    expect((await invoke(listUsers, { params: { siteId: site.id }, token: mod.jwt! })).status).toBe(200);
    const odd = await login(site.id, 'odd@example.org');
    expect((await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: odd.jwt! })).body.role).toBe('member');
  });

  it('uses the userinfo sub when there is no id', async () => {
    const site = await createLoginSite(auth);
    auth.control.userinfoWithoutId = true;
    const { done } = await login(site.id, 'ann@example.org');
    expect(done.status).toBe(302);
    const [user] = await usersOf(site.id);
    expect(user!.externalUserId).toBe(String(auth.control.userByEmail('ann@example.org')!.id));
  });

  it('logs in through another oauth entry with useOauth', async () => {
    const site = await createSite({
      allowedDomains: ['frontend.example.org'],
      oauth: { default: oauthConfig(auth.url), other: oauthConfig(auth.url, OTHER_CLIENT) },
    });
    const { start, done } = await login(site.id, 'ann@example.org', { useOauth: 'other' });
    expect(new URL(start.headers.location!).searchParams.get('client_id')).toBe('other-client');
    expect(done.status).toBe(302);
    const unknown = await invoke(loginHandler, {
      params: { siteId: site.id },
      query: { redirectUrl: `${FRONTEND}/`, useOauth: 'nope' },
      headers: { host: API_HOST },
    });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown.body).message).toMatch(/config\.oauth\.nope/);
  });

  it('costs a constant number of DynamoDB requests', async () => {
    const site = await createLoginSite(auth);
    const newcomer = await codeFor(site.id, 'ann@example.org');
    const created = await countRequests(() =>
      invoke(digestHandler, { params: { siteId: site.id }, query: Object.fromEntries(newcomer.callback.searchParams), cookies: newcomer.cookies }),
    );
    expect(created.result.status).toBe(302);
    // Site Get, brute-force counter, used-state Put, link + role floor BatchGet (consistent), user + id claim + link
    // TransactWrite: the user id is made from time (no counter request, no shared item).
    expect(created.requests).toBe(5);
    expect(created.commands['UpdateItemCommand'] ?? 0).toBe(1);
    const returning = await codeFor(site.id, 'ann@example.org');
    const refreshed = await countRequests(() =>
      invoke(digestHandler, { params: { siteId: site.id }, query: Object.fromEntries(returning.callback.searchParams), cookies: returning.cookies }),
    );
    expect(refreshed.result.status).toBe(302);
    // Site Get, brute-force counter, used-state Put, link + role floor BatchGet, user Update.
    expect(refreshed.requests).toBe(5);
    // The login start: site Get and the brute-force counter.
    const start = await countRequests(() => invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: API_HOST } }));
    expect(start.result.status).toBe(302);
    expect(start.requests).toBe(2);
  });
});

describe('login: redirectUrl rule', () => {
  it.each([
    ['a foreign host', 'https://evil.example.com/x'],
    ['a look-alike host', 'https://frontend.example.org.evil.com/x'],
    ['a relative URL', '/after-login'],
    ['a protocol-relative URL', '//evil.example.com/x'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['credentials in the URL', 'https://frontend.example.org@evil.example.com/'],
    ['credentials for the right host', 'https://user:pw@frontend.example.org/'],
  ])('refuses %s with 400', async (_what, redirectUrl) => {
    const site = await createLoginSite(auth);
    const res = await invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl }, headers: { host: API_HOST } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'BadRequest' });
    expect(res.headers.location).toBeUndefined();
  });

  it('ignores the port and the letter case of the host', async () => {
    const site = await createLoginSite(auth);
    const { done } = await login(site.id, 'ann@example.org', { redirectUrl: 'https://FRONTEND.example.org:8443/x' });
    expect(done.status).toBe(302);
    expect(done.headers.location!.startsWith('https://frontend.example.org:8443/x?jwt=')).toBe(true);
  });

  it('needs a redirectUrl unless the site configures an after-login address', async () => {
    const site = await createLoginSite(auth);
    const res = await invoke(loginHandler, { params: { siteId: site.id }, headers: { host: API_HOST } });
    expect(res.status).toBe(400);
    const configured = await createSite({
      allowedDomains: ['frontend.example.org'],
      oauth: { default: { ...oauthConfig(auth.url), 'after-login-redirect-uri': `${FRONTEND}/welcome` } },
    });
    const start = await invoke(loginHandler, { params: { siteId: configured.id }, headers: { host: API_HOST } });
    expect(start.status).toBe(302);
  });

  /** Where a login without redirectUrl ends: the redirectUrl inside the state it issued. */
  const fallbackOf = async (siteId: number) => {
    const start = await invoke(loginHandler, { params: { siteId }, headers: { host: API_HOST } });
    if (start.status !== 302) return start.status;
    const state = new URL(start.headers.location!).searchParams.get('state')!;
    return JSON.parse(Buffer.from(state.split('.')[1]!, 'base64url').toString()).redirectUrl as string;
  };

  it('falls back to cms.after-login-redirect-uri, then to the oauth entry, each under the allowedDomains rule', async () => {
    const entry = { ...oauthConfig(auth.url), 'after-login-redirect-uri': `${FRONTEND}/from-oauth` };
    const both = await createSite({ allowedDomains: ['frontend.example.org'], cms: { 'after-login-redirect-uri': `${FRONTEND}/from-cms` }, oauth: { default: entry } });
    expect(await fallbackOf(both.id)).toBe(`${FRONTEND}/from-cms`);
    const oauthOnly = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: entry } });
    expect(await fallbackOf(oauthOnly.id)).toBe(`${FRONTEND}/from-oauth`);
    const foreignCms = await createSite({ allowedDomains: ['frontend.example.org'], cms: { 'after-login-redirect-uri': 'https://evil.example/' }, oauth: { default: entry } });
    expect(await fallbackOf(foreignCms.id)).toBe(400);
    const foreignOauth = await createSite({
      allowedDomains: ['frontend.example.org'],
      oauth: { default: { ...entry, 'after-login-redirect-uri': 'https://evil.example/' } },
    });
    expect(await fallbackOf(foreignOauth.id)).toBe(400);
    // A redirectUrl sent wins over both.
    const sent = await invoke(loginHandler, { params: { siteId: both.id }, query: { redirectUrl: `${FRONTEND}/sent` }, headers: { host: API_HOST } });
    expect(sent.status).toBe(302);
  });

  it('refuses every redirectUrl when the site allows no domains', async () => {
    const site = await createLoginSite(auth, { allowedDomains: [] });
    const res = await invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: API_HOST } });
    expect(res.status).toBe(400);
  });

  it('answers 404 naming the key when the site has no such oauth entry, after the redirectUrl rule', async () => {
    const site = await createSite({ allowedDomains: ['frontend.example.org'] });
    for (const handler of [loginHandler, logoutHandler]) {
      const res = await invoke(handler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: API_HOST } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'NotFound', message: expect.stringContaining('config.oauth.default') });
      const named = await invoke(handler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/`, useOauth: 'cms2' }, headers: { host: API_HOST } });
      expect(named.status).toBe(404);
      expect(errorOf(named.body).message).toContain('config.oauth.cms2');
      const bad = await invoke(handler, { params: { siteId: site.id }, query: { redirectUrl: 'https://evil.example/' }, headers: { host: API_HOST } });
      expect(bad.status).toBe(400);
    }
  });
});

describe('digest-login: state', () => {
  it('refuses a tampered state with 400 and creates nobody', async () => {
    const site = await createLoginSite(auth);
    const { code, state, cookies } = await codeFor(site.id);
    const [header, payload, signature] = state.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, redirectUrl: 'https://evil.example.com/' })).toString('base64url');
    for (const bad of [`${header}.${forged}.${signature}`, tamperMiddle(state), 'not-a-jwt']) {
      const res = await invoke(digestHandler, { params: { siteId: site.id }, query: { code, state: bad }, cookies });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    expect(await usersOf(site.id)).toHaveLength(0);
  });

  it('refuses an expired state with 400', async () => {
    const site = await createLoginSite(auth);
    const { code } = await codeFor(site.id);
    const { state: expired, cookies } = await stateWithCookie(site.id, -120);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: { code, state: expired }, cookies });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toMatch(/expired/);
  });

  it('refuses the state of another site with 400', async () => {
    const site = await createLoginSite(auth);
    const other = await createLoginSite(auth);
    const { code, state, cookies } = await codeFor(other.id);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: { code, state }, cookies });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).message).toMatch(/another site/);
  });

  it('never takes an API token for a state, nor a state for an API token', async () => {
    const site = await createLoginSite(auth);
    const { code, state, cookies } = await codeFor(site.id);
    const user = await createUser(site.id, 'admin');
    const asState = await invoke(digestHandler, { params: { siteId: site.id }, query: { code, state: user.token }, cookies });
    expect(asState.status).toBe(400);
    const asToken = await invoke(meHandler, { params: { siteId: site.id }, token: state });
    expect(asToken.status).toBe(401);
    // Even a state signed with the API key itself is not a state.
    const withApiKey = await new SignJWT({ siteId: site.id, redirectUrl: `${FRONTEND}/`, oauth: 'default', callback: 'x', nonceHash: 'n' })
      .setProtectedHeader({ alg: 'HS256', typ: 'oauth-state+jwt' })
      .setIssuer('participation-api')
      .setAudience('participation-api/oauth-state')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(process.env.JWT_SECRET!));
    expect((await invoke(digestHandler, { params: { siteId: site.id }, query: { code, state: withApiKey }, cookies })).status).toBe(400);
  });

  it('needs state and code', async () => {
    const site = await createLoginSite(auth);
    const { code, state, cookies } = await codeFor(site.id);
    expect((await invoke(digestHandler, { params: { siteId: site.id }, query: { code }, cookies })).status).toBe(400);
    expect((await invoke(digestHandler, { params: { siteId: site.id }, query: { state }, cookies })).status).toBe(400);
  });

  it('sends a cancelled login back to the frontend with the error', async () => {
    const site = await createLoginSite(auth);
    const { state, cookies } = await codeFor(site.id);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: { state, error: 'access_denied' }, cookies });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.location!).searchParams.get('error')).toBe('access_denied');
    expect(new URL(res.headers.location!).searchParams.has('jwt')).toBe(false);
  });

  it('refuses a code that was already used with 400, even under a fresh state', async () => {
    const site = await createLoginSite(auth);
    const first = await login(site.id, 'ann@example.org');
    expect(first.done.status).toBe(302);
    const fresh = await codeFor(site.id);
    const replay = await invoke(digestHandler, {
      params: { siteId: site.id },
      query: { state: fresh.state, code: first.callback.searchParams.get('code')! },
      cookies: fresh.cookies,
    });
    expect(replay.status).toBe(400);
    expect(errorOf(replay.body).message).toMatch(/invalid, expired or already used/);
  });
});

describe('digest-login: auth server failures', () => {
  it.each([
    ['token', 500],
    ['token', 503],
    ['userinfo', 500],
    ['userinfo', 401],
  ] as const)('answers 502 when %s answers %i, and changes nothing', async (endpoint, status) => {
    const site = await createLoginSite(auth);
    const { callback, cookies } = await codeFor(site.id);
    auth.control.failures[endpoint] = status;
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: Object.fromEntries(callback.searchParams), cookies });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 502, error: 'BadGateway' });
    expect(errorOf(res.body).message).toBe(`The auth server could not complete ${endpoint === 'token' ? 'the code exchange' : 'the userinfo request'}; please try again later`);
    expect(await usersOf(site.id)).toHaveLength(0);
  });

  it('answers 502 when the auth server cannot be reached', async () => {
    const closedPort = await freePort();
    const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(`http://127.0.0.1:${closedPort}`) } });
    const { state, cookies } = await stateWithCookie(site.id);
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: { code: 'abc', state }, cookies });
    expect(res.status).toBe(502);
    expect(errorOf(res.body).message).toBe('The auth server could not complete the code exchange; please try again later');
  });

  it('answers 502 when the auth server is too slow', async () => {
    const site = await createLoginSite(auth);
    const { callback, cookies } = await codeFor(site.id);
    // Left alone, the auth server would answer 200 after this delay and the login would succeed:
    // a 502 can only come from our own timeout cutting the call.
    auth.control.delays.userinfo = AUTH_SERVER_TIMEOUT_MS * 15;
    const res = await invoke(digestHandler, { params: { siteId: site.id }, query: Object.fromEntries(callback.searchParams), cookies });
    expect(res.status).toBe(502);
    expect(errorOf(res.body).message).toBe('The auth server could not complete the userinfo request; please try again later');
    expect(await usersOf(site.id)).toHaveLength(0);
  });

  it('answers 502 when the client secret is wrong', async () => {
    const site = await createSite({
      allowedDomains: ['frontend.example.org'],
      oauth: { default: { ...oauthConfig(auth.url), 'auth-client-secret': 'wrong' } },
    });
    const { done } = await login(site.id, 'ann@example.org');
    expect(done.status).toBe(502);
    expect(errorOf(done.body).message).not.toMatch(/wrong|secret/);
  });
});

describe('digest-login: users.canCreateNewUsers false', () => {
  it('refuses a new person with 403 and lets an existing user log in', async () => {
    const site = await createLoginSite(auth);
    expect((await login(site.id, 'mod@example.org')).done.status).toBe(302);
    const closed = await invoke(updateSite, {
      method: 'PUT',
      params: { siteId: site.id },
      token: SERVICE_TOKEN,
      body: {
        config: { allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(auth.url) }, users: { canCreateNewUsers: false } },
      },
    });
    expect(closed.status).toBe(200);
    const newcomer = await login(site.id, 'ann@example.org');
    expect(newcomer.done.status).toBe(403);
    expect(errorOf(newcomer.done.body).error).toBe('Forbidden');
    expect(await usersOf(site.id)).toHaveLength(1);
    const existing = await login(site.id, 'mod@example.org');
    expect(existing.done.status).toBe(302);
    expect(existing.jwt).toBeTruthy();
  });
});

describe('tokens and /me', () => {
  it('refuses the token on another site with 401', async () => {
    const site = await createLoginSite(auth);
    const other = await createLoginSite(auth);
    const { jwt } = await login(site.id, 'ann@example.org');
    const res = await invoke(meHandler, { params: { siteId: other.id }, token: jwt! });
    expect(res.status).toBe(401);
    expect((await invoke(listUsers, { params: { siteId: other.id }, token: jwt! })).status).toBe(401);
  });

  it('answers 401 without a token, with a bad or expired one, and for a service token', async () => {
    const site = await createLoginSite(auth);
    const user = await createUser(site.id);
    expect((await invoke(meHandler, { params: { siteId: site.id } })).status).toBe(401);
    expect((await invoke(meHandler, { params: { siteId: site.id }, token: `${user.token}x` })).status).toBe(401);
    const expired = await issueToken({ userId: user.id, siteId: site.id }, { ttlSeconds: -120 });
    expect((await invoke(meHandler, { params: { siteId: site.id }, token: expired })).status).toBe(401);
    expect((await invoke(meHandler, { params: { siteId: site.id }, token: SERVICE_TOKEN })).status).toBe(401);
    const me = await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: user.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });

  it('reads /me from the caller lookup alone (site + user: one BatchGet)', async () => {
    const site = await createLoginSite(auth);
    const user = await createUser(site.id);
    const counted = await countRequests(() => invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: user.token }));
    expect(counted.result.status).toBe(200);
    expect(counted.requests).toBe(1);
  });
});

describe('logout', () => {
  it('redirects to the auth server logout, which sends the person back', async () => {
    const site = await createLoginSite(auth);
    const res = await invoke(logoutHandler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/bye` } });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location!);
    expect(location.origin + location.pathname).toBe(`${auth.url}/logout`);
    expect(location.searchParams.get('client_id')).toBe('site-client');
    expect(location.searchParams.get('redirect_uri')).toBe(`${FRONTEND}/bye`);
    const back = await fetch(location, { redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${FRONTEND}/bye`);
  });

  it('follows the redirectUrl rule', async () => {
    const site = await createLoginSite(auth);
    const res = await invoke(logoutHandler, { params: { siteId: site.id }, query: { redirectUrl: 'https://evil.example.com/' } });
    expect(res.status).toBe(400);
    const bare = await invoke(logoutHandler, { params: { siteId: site.id } });
    expect(bare.status).toBe(302);
    expect(new URL(bare.headers.location!).searchParams.has('redirect_uri')).toBe(false);
  });
});
