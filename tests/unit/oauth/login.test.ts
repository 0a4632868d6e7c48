/**
 * The login flow (lib/oauth/login.ts) with its two outside parties replaced by doubles: the store of
 * used states (an in-memory set) and the auth server (recorded code exchange and userinfo), plus the
 * site user lookup. The state, its cookie, the redirect rules and the JWT are the real ones, so these
 * tests pin what a browser sees: where each step sends it, with which cookie, and which 400 it gets.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyToken } from '#lib/auth/jwt';
import type { AuthServerConfig } from '#lib/auth-server/config';
import { loginCookie } from '#lib/oauth/login-cookie';
import { nonceHashOf, signState, verifyState } from '#lib/oauth/state';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { AuthServerUser } from '#schemas/oauth';

const world = vi.hoisted(() => ({
  used: new Set<string>(),
  marks: [] as Array<{ siteId: number; nonceHash: string; exp: number }>,
  exchanges: [] as Array<{ server: string; code: string; redirectUri: string }>,
  userinfo: [] as Array<{ server: string; accessToken: string }>,
  logins: [] as Array<{ siteId: number; server: string; authUser: unknown }>,
}));

vi.mock('#lib/store/login/login-states', () => ({
  markLoginStateUsed: vi.fn(async (siteId: number, nonceHash: string, exp: number) => {
    world.marks.push({ siteId, nonceHash, exp });
    const key = `${siteId}|${nonceHash}`;
    if (world.used.has(key)) return false;
    world.used.add(key);
    return true;
  }),
}));
vi.mock('#lib/auth-server/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#lib/auth-server/client')>()),
  exchangeCode: vi.fn(async (server: AuthServerConfig, code: string, redirectUri: string) => {
    world.exchanges.push({ server: server.name, code, redirectUri });
    return `token-from-${server.name}`;
  }),
  fetchUserInfo: vi.fn(async (server: AuthServerConfig, accessToken: string): Promise<AuthServerUser> => {
    world.userinfo.push({ server: server.name, accessToken });
    return { id: 'ext-1', email: 'p@city.example' };
  }),
}));
vi.mock('#lib/users/login', () => ({
  userForLogin: vi.fn(async (site: Site, server: AuthServerConfig, authUser: unknown) => {
    world.logins.push({ siteId: site.id, server: server.name, authUser });
    return { id: 42 };
  }),
}));

const { digestLogin, digestLoginPath, loginStart, logoutLocation } = await import('#lib/oauth/login');

const SITE_ID = 7;
const CALLBACK = `https://api.example/oauth/site/${SITE_ID}/digest-login`;
const HEADERS = { host: 'api.example', 'x-forwarded-proto': 'https' };
const entry = (url: string, extra: Record<string, string> = {}) => ({
  'auth-server-url': url,
  'auth-client-id': 'client 1',
  'auth-client-secret': 's3cret',
  ...extra,
});
const siteWith = (config: Record<string, unknown> = {}): Site =>
  ({
    id: SITE_ID,
    name: 's',
    config: withDefaults({
      allowedDomains: ['city.example'],
      oauth: { default: entry('https://auth.example'), other: entry('https://other-auth.example') },
      ...config,
    }),
  }) as unknown as Site;

/** The Set-Cookie line's name and value. */
const cookiePair = (setCookie: string) => {
  const [pair] = setCookie.split(';');
  const at = pair!.indexOf('=');
  return { name: pair!.slice(0, at), value: pair!.slice(at + 1) };
};

const badRequest = (message: string | RegExp) => expect.objectContaining({ status: 400, message: typeof message === 'string' ? message : expect.stringMatching(message) });

/** A login started the way a browser starts it: the auth server's `state` and the browser's cookies. */
async function started(site: Site, query: { redirectUrl?: string; useOauth?: string } = { redirectUrl: 'https://city.example/after' }) {
  const { location, cookies } = await loginStart(site, query, HEADERS);
  const state = new URL(location).searchParams.get('state')!;
  const { name, value } = cookiePair(cookies[0]!);
  return { state, cookies: { [name]: value }, location };
}

beforeEach(() => {
  world.used.clear();
  for (const list of [world.marks, world.exchanges, world.userinfo, world.logins]) list.length = 0;
});

describe('login start', () => {
  it('sends the browser to the auth server with the code-grant parameters and a state bound to its cookie', async () => {
    const { location, cookies } = await loginStart(siteWith(), { redirectUrl: 'https://city.example/after?x=1' }, HEADERS);
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe('https://auth.example/dialog/authorize');
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'state']);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('client 1');
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);

    expect(cookies).toHaveLength(1);
    const cookie = cookiePair(cookies[0]!);
    expect(cookie.name).toBe(loginCookie(CALLBACK).name);
    expect(cookies[0]).toContain('Max-Age=600');
    const claims = await verifyState(url.searchParams.get('state')!, SITE_ID);
    expect(claims).toMatchObject({ siteId: SITE_ID, redirectUrl: 'https://city.example/after?x=1', oauth: 'default', callback: CALLBACK });
    expect(claims.nonceHash).toBe(nonceHashOf(cookie.value));
  });

  it('each login gets its own nonce', async () => {
    const a = await started(siteWith());
    const b = await started(siteWith());
    expect(Object.values(a.cookies)[0]).not.toBe(Object.values(b.cookies)[0]);
  });

  it('fills every [[redirectUrl]] of the configured login path with the encoded callback', async () => {
    const site = siteWith({ oauth: { default: entry('https://auth.example/base', { 'auth-server-login-path': '/login/[[clientId]]?back=[[redirectUrl]]&again=[[redirectUrl]]' }) } });
    const url = new URL((await loginStart(site, { redirectUrl: 'https://city.example/' }, HEADERS)).location);
    expect(url.pathname).toBe('/base/login/client%201');
    expect(url.searchParams.get('back')).toBe(CALLBACK);
    expect(url.searchParams.get('again')).toBe(CALLBACK);
  });

  it('uses the auth server that useOauth names, and says so in the state', async () => {
    const { location } = await started(siteWith(), { redirectUrl: 'https://city.example/', useOauth: 'other' });
    const url = new URL(location);
    expect(url.origin).toBe('https://other-auth.example');
    expect((await verifyState(url.searchParams.get('state')!, SITE_ID)).oauth).toBe('other');
  });

  it('without a redirectUrl: cms.after-login-redirect-uri, else the entry\'s, each under allowedDomains; none is a 400', async () => {
    const target = async (site: Site) => (await verifyState((await started(site, {})).state, SITE_ID)).redirectUrl;
    const withEntryUri = { default: entry('https://auth.example', { 'after-login-redirect-uri': 'https://city.example/from-entry' }) };
    expect(await target(siteWith({ cms: { 'after-login-redirect-uri': 'https://city.example/from-cms' }, oauth: withEntryUri }))).toBe('https://city.example/from-cms');
    expect(await target(siteWith({ oauth: withEntryUri }))).toBe('https://city.example/from-entry');

    await expect(loginStart(siteWith({ cms: { 'after-login-redirect-uri': 'https://evil.example/' } }), {}, HEADERS)).rejects.toEqual(
      badRequest("cms.after-login-redirect-uri must point to one of the site's allowedDomains"),
    );
    await expect(loginStart(siteWith({ oauth: { default: entry('https://auth.example', { 'after-login-redirect-uri': 'https://evil.example/' }) } }), {}, HEADERS)).rejects.toEqual(
      badRequest("oauth.default.after-login-redirect-uri must point to one of the site's allowedDomains"),
    );
    await expect(loginStart(siteWith(), {}, HEADERS)).rejects.toEqual(badRequest('redirectUrl is required (the site configures no after-login-redirect-uri)'));
  });

  it('a redirectUrl outside allowedDomains is a 400, even on a site without any auth server', async () => {
    await expect(loginStart(siteWith({ oauth: {} }), { redirectUrl: 'https://evil.example/' }, HEADERS)).rejects.toEqual(
      badRequest("redirectUrl must point to one of the site's allowedDomains"),
    );
    await expect(loginStart(siteWith({ oauth: {} }), { redirectUrl: 'https://city.example/' }, HEADERS)).rejects.toMatchObject({ status: 404 });
  });

  it('the callback is this API\'s digest-login URL for the site', () => {
    expect(digestLoginPath(12)).toBe('/oauth/site/12/digest-login');
  });
});

describe('digest-login', () => {
  it('exchanges the code for the callback of the state, reads the user, and sends them back with a JWT for this site', async () => {
    const site = siteWith();
    const { state, cookies } = await started(site, { redirectUrl: 'https://city.example/after?x=1' });
    const { location, cookies: set } = await digestLogin(site, { state, code: 'c0de' }, cookies);

    expect(world.exchanges).toEqual([{ server: 'default', code: 'c0de', redirectUri: CALLBACK }]);
    expect(world.userinfo).toEqual([{ server: 'default', accessToken: 'token-from-default' }]);
    expect(world.logins).toEqual([{ siteId: SITE_ID, server: 'default', authUser: { id: 'ext-1', email: 'p@city.example' } }]);
    const back = new URL(location);
    expect(back.origin + back.pathname).toBe('https://city.example/after');
    expect(back.searchParams.get('x')).toBe('1');
    expect(await verifyToken(back.searchParams.get('jwt')!, SITE_ID)).toEqual({ userId: 42, siteId: SITE_ID });
    // The login cookie is removed: same name, empty, expired.
    expect(set).toHaveLength(1);
    expect(cookiePair(set[0]!)).toEqual({ name: Object.keys(cookies)[0], value: '' });
    expect(set[0]).toContain('Max-Age=0');
  });

  it('records the state as used, by its nonce hash until it expires; a second callback with it is a 400', async () => {
    const site = siteWith();
    const { state, cookies } = await started(site);
    const claims = await verifyState(state, SITE_ID);
    await digestLogin(site, { state, code: 'c0de' }, cookies);
    expect(world.marks).toEqual([{ siteId: SITE_ID, nonceHash: claims.nonceHash, exp: claims.exp }]);

    await expect(digestLogin(site, { state, code: 'c0de' }, cookies)).rejects.toEqual(badRequest('This login state was already used; please start the login again'));
    expect(world.exchanges).toHaveLength(1);
  });

  it('without the cookie of the browser that started it: 400, and the state is not used up', async () => {
    const site = siteWith();
    const { state, cookies } = await started(site);
    const other = await started(site);
    const notThisBrowser = /^This login was not started in this browser/;
    await expect(digestLogin(site, { state, code: 'c' }, {})).rejects.toEqual(badRequest(notThisBrowser));
    await expect(digestLogin(site, { state, code: 'c' }, other.cookies)).rejects.toEqual(badRequest(notThisBrowser));
    expect(world.marks).toEqual([]);
    await expect(digestLogin(site, { state, code: 'c' }, cookies)).resolves.toBeDefined();
  });

  it("another site's state, or a forged one, is a 400 before anything is recorded", async () => {
    const { state, cookies } = await started(siteWith());
    await expect(digestLogin({ ...siteWith(), id: 8 }, { state, code: 'c' }, cookies)).rejects.toEqual(badRequest('The login state belongs to another site'));
    await expect(digestLogin(siteWith(), { state: `${state}x`, code: 'c' }, cookies)).rejects.toEqual(badRequest(/invalid or expired/));
    expect(world.marks).toEqual([]);
  });

  it('an error from the auth server (the person cancelled) goes back to the frontend with it; no code exchange', async () => {
    const site = siteWith();
    const { state, cookies } = await started(site);
    const { location, cookies: set } = await digestLogin(site, { state, error: 'access_denied' }, cookies);
    expect(location).toBe('https://city.example/after?error=access_denied');
    expect(set[0]).toContain('Max-Age=0');
    expect(world.exchanges).toEqual([]);
  });

  it('neither code nor error is a 400', async () => {
    const site = siteWith();
    const { state, cookies } = await started(site);
    await expect(digestLogin(site, { state }, cookies)).rejects.toEqual(badRequest('code is required'));
    expect(world.exchanges).toEqual([]);
  });

  it('checks the redirectUrl again: a domain removed from allowedDomains since the start is a 400', async () => {
    const { state, cookies } = await started(siteWith());
    await expect(digestLogin(siteWith({ allowedDomains: ['elsewhere.example'] }), { state, code: 'c' }, cookies)).rejects.toEqual(
      badRequest("redirectUrl must point to one of the site's allowedDomains"),
    );
    expect(world.exchanges).toEqual([]);
  });

  it('finishes on the auth server the login started with', async () => {
    const site = siteWith();
    const { state, cookies } = await started(site, { redirectUrl: 'https://city.example/', useOauth: 'other' });
    await digestLogin(site, { state, code: 'c0de' }, cookies);
    expect(world.exchanges).toEqual([{ server: 'other', code: 'c0de', redirectUri: CALLBACK }]);
    expect(world.logins[0]?.server).toBe('other');
  });

  it('a state signed for a callback on plain http (local stage) finds its cookie by that callback', async () => {
    const site = siteWith();
    const callback = `http://localhost:3000/oauth/site/${SITE_ID}/digest-login`;
    const nonce = 'n'.repeat(43);
    const state = await signState({ siteId: SITE_ID, redirectUrl: 'https://city.example/', oauth: 'default', callback }, 600, nonce);
    await digestLogin(site, { state, code: 'c' }, { [loginCookie(callback).name]: nonce });
    expect(world.exchanges).toEqual([{ server: 'default', code: 'c', redirectUri: callback }]);
  });
});

describe('logout', () => {
  it('sends the browser to the auth server\'s logout with the client id and the checked redirectUrl', () => {
    const url = new URL(logoutLocation(siteWith(), { redirectUrl: 'https://city.example/bye' }));
    expect(url.origin + url.pathname).toBe('https://auth.example/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: 'client 1', redirect_uri: 'https://city.example/bye' });
  });

  it('without a redirectUrl: no redirect_uri, and [[redirectUrl]] in the path becomes empty', () => {
    const site = siteWith({ oauth: { default: entry('https://auth.example', { 'auth-server-logout-path': '/logout?to=[[redirectUrl]]' }) } });
    const url = new URL(logoutLocation(site, {}));
    expect(Object.fromEntries(url.searchParams)).toEqual({ to: '', client_id: 'client 1' });
    const withRedirect = new URL(logoutLocation(site, { redirectUrl: 'https://city.example/bye' }));
    expect(withRedirect.searchParams.get('to')).toBe('https://city.example/bye');
  });

  it('uses the auth server useOauth names; a redirectUrl outside allowedDomains is a 400', () => {
    expect(new URL(logoutLocation(siteWith(), { useOauth: 'other' })).origin).toBe('https://other-auth.example');
    expect(() => logoutLocation(siteWith(), { redirectUrl: 'https://evil.example/' })).toThrow("redirectUrl must point to one of the site's allowedDomains");
  });
});
