/**
 * Which auth server a site's login talks to (lib/auth-server/config.ts) and this API's own base URL for
 * `redirect_uri` (lib/oauth/public-url.ts): pure rules, tested as the misconfigurations and forged
 * headers they exist for.
 */
import { describe, expect, it } from 'vitest';
import { authServerByUrl, authServerFor, authServerUrlDetails, defaultAuthServerOrNone, normaliseAuthServerUrl } from '#lib/auth-server/config';
import { publicBaseUrl } from '#lib/oauth/public-url';
import type { SiteConfig } from '#lib/sites/config-defaults';

const entry = (url: string, extra: Record<string, string> = {}) => ({ 'auth-server-url': url, 'auth-client-id': 'id', 'auth-client-secret': 'secret', ...extra });
const site = (oauth: Record<string, unknown>) => ({ oauth }) as unknown as SiteConfig;

describe('normaliseAuthServerUrl', () => {
  it.each([
    ['https://auth.example/', 'https://auth.example'],
    ['  https://AUTH.example:8443/base///  ', 'https://auth.example:8443/base'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
  ])('%j -> %j', (raw, expected) => {
    expect(normaliseAuthServerUrl(raw)).toBe(expected);
  });

  it.each(['not a url', 'ftp://auth.example', 'https://u:p@auth.example', 'https://auth.example/?a=1', 'https://auth.example/#x', `https://auth.example/${'a'.repeat(520)}`])('refuses %j', (raw) => {
    expect(normaliseAuthServerUrl(raw)).toBeUndefined();
  });
});

describe('authServerFor', () => {
  it('fills in OpenStad default paths and keeps configured ones', () => {
    expect(authServerFor(1, site({ default: entry('https://auth.example/') }))).toEqual({
      name: 'default',
      url: 'https://auth.example',
      clientId: 'id',
      clientSecret: 'secret',
      loginPath: '/dialog/authorize',
      exchangeCodePath: '/oauth/token',
      userPath: '/api/userinfo',
      logoutPath: '/logout',
      afterLoginRedirectUri: undefined,
    });
    const custom = authServerFor(1, site({ other: entry('https://a.example', { 'auth-server-login-path': '/l', 'auth-server-exchange-code-path': '/t', 'auth-server-get-user-path': '/u', 'auth-server-logout-path': '/o', 'after-login-redirect-uri': 'https://f.example' }) }), 'other');
    expect(custom).toMatchObject({ name: 'other', loginPath: '/l', exchangeCodePath: '/t', userPath: '/u', logoutPath: '/o', afterLoginRedirectUri: 'https://f.example' });
  });

  it('404 for an entry the site does not have (toString or __proto__ are not entries)', () => {
    for (const name of [undefined, 'missing', 'toString', '__proto__']) {
      expect(() => authServerFor(1, site({ x: entry('https://a.example') }), name), String(name)).toThrow(/has no config\.oauth\./);
    }
  });

  it('502 for an entry that is there but unusable', () => {
    expect(() => authServerFor(1, site({ default: entry('nope') }))).toThrow(/needs a valid auth-server-url/);
    expect(() => authServerFor(1, site({ default: { 'auth-server-url': 'https://a.example', 'auth-client-id': 'id' } }))).toThrow(/needs auth-client-id and auth-client-secret/);
    try {
      authServerFor(1, site({ default: entry('nope') }));
    } catch (err) {
      expect((err as { status: number }).status).toBe(502);
    }
  });

  it('defaultAuthServerOrNone: none without a default url, else the default', () => {
    expect(defaultAuthServerOrNone(1, site({}))).toBeUndefined();
    expect(defaultAuthServerOrNone(1, site({ default: { 'auth-client-id': 'x' } }))).toBeUndefined();
    expect(defaultAuthServerOrNone(1, site({ default: entry('https://a.example/') }))?.url).toBe('https://a.example');
  });

  it('authServerByUrl prefers the default entry and refuses a server no longer configured (502)', () => {
    const config = site({ b: entry('https://same.example'), default: entry('https://same.example/'), c: entry('https://other.example') });
    expect(authServerByUrl(1, config, 'https://same.example').name).toBe('default');
    expect(authServerByUrl(1, config, 'https://other.example').name).toBe('c');
    expect(() => authServerByUrl(1, config, 'https://gone.example')).toThrow(/no longer configured/);
  });
});

describe('authServerUrlDetails (the SSRF rule when a config is saved)', () => {
  it('one detail per refused entry, with its config path; nothing for a config without oauth', () => {
    expect(authServerUrlDetails(undefined, false)).toEqual([]);
    expect(authServerUrlDetails({ oauth: 'x' }, false)).toEqual([]);
    const details = authServerUrlDetails({ oauth: { default: entry('http://169.254.169.254/'), ok: entry('https://auth.example'), empty: { 'auth-server-url': '' } } }, false);
    expect(details.map((d) => d.path)).toEqual(['config.oauth.default.auth-server-url']);
  });
});

describe('publicBaseUrl (redirect_uri) from Host', () => {
  it('https by default, http for local hosts, x-forwarded-proto when it says http or https', () => {
    expect(publicBaseUrl({ host: 'API.City.example' })).toBe('https://api.city.example');
    expect(publicBaseUrl({ host: 'localhost:3000' })).toBe('http://localhost:3000');
    expect(publicBaseUrl({ host: '127.0.0.1:3000', 'x-forwarded-proto': 'https' })).toBe('https://127.0.0.1:3000');
    expect(publicBaseUrl({ host: 'api.example', 'x-forwarded-proto': 'http, https' })).toBe('http://api.example');
    expect(publicBaseUrl({ host: 'api.example', 'x-forwarded-proto': 'gopher' })).toBe('https://api.example');
    expect(publicBaseUrl({ host: '[::1]:3000' })).toBe('http://[::1]:3000');
  });

  it.each([undefined, '', 'evil.example/path', 'a b', 'evil.example:99999999', 'x@y'])('400 for Host %j', (host) => {
    expect(() => publicBaseUrl({ host })).toThrow('The request has no valid Host header');
  });
});
