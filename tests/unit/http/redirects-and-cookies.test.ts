/**
 * No open redirects (lib/oauth/redirect-url.ts, CONTRACT "Login") and the login cookie plumbing
 * (lib/http/cookies.ts), written as the attacks and edge cases they exist for.
 */
import { describe, expect, it } from 'vitest';
import { readCookies } from '#lib/http/cookies';
import { serializeCookie } from '#lib/oauth/login-cookie';
import { checkRedirectUrl, withFragment, withQuery } from '#lib/oauth/redirect-url';

const allowed = ['city.example', 'https://Portal.Example:8443', 'local.test:3000'];

describe('checkRedirectUrl', () => {
  const LOCAL = true;
  const DEPLOYED = false;

  it.each([
    ['https://city.example/after-login', DEPLOYED],
    ['https://city.example:8080/x?y=1', DEPLOYED],
    ['http://city.example:8080/x?y=1', LOCAL],
    ['https://portal.example:8443/', DEPLOYED],
    ['https://PORTAL.example:8443/path', DEPLOYED],
    ['http://local.test:3000/', LOCAL],
  ])('takes %s (an allowed frontend: the host, and the port where the entry names one; any case)', (url, local) => {
    expect(checkRedirectUrl(url, allowed, 'redirectUrl', local).href).toBe(new URL(url).href);
  });

  it.each([
    ['a relative URL', '/after-login', 'redirectUrl must be an absolute URL'],
    ['a javascript: URL', 'javascript:alert(1)', 'redirectUrl must be an https URL'],
    ['credentials before an allowed-looking host', 'https://city.example@evil.example/', 'redirectUrl must not contain credentials'],
    ['a user only', 'https://user@city.example/', 'redirectUrl must not contain credentials'],
    ['another host', 'https://evil.example/', "redirectUrl must point to one of the site's allowedDomains"],
    ['a subdomain of an allowed host', 'https://x.city.example/', "redirectUrl must point to one of the site's allowedDomains"],
    ['an allowed host as a suffix', 'https://evilcity.example/', "redirectUrl must point to one of the site's allowedDomains"],
    // The JWT would travel in clear text: outside the local stage only https.
    ['plain http outside the local stage', 'http://city.example/after-login', 'redirectUrl must be an https URL'],
    // The entry names its port: another port of the same host is another program, maybe not the frontend's.
    ['another port of a host whose entry names one', 'https://local.test:9999/steal', "redirectUrl must point to one of the site's allowedDomains"],
    ['the default port of a host whose entry names 8443', 'https://portal.example/', "redirectUrl must point to one of the site's allowedDomains"],
  ])('refuses %s with a 400 saying why', (_, url, message) => {
    expect(() => checkRedirectUrl(url, allowed, 'redirectUrl', DEPLOYED)).toThrow(message);
  });

  it('on the local stage http is taken, but a named port still has to match', () => {
    expect(() => checkRedirectUrl('http://local.test:9999/steal', allowed, 'redirectUrl', LOCAL)).toThrow(/allowedDomains/);
    expect(() => checkRedirectUrl('ftp://city.example/', allowed, 'redirectUrl', LOCAL)).toThrow('redirectUrl must be an http or https URL');
  });

  it('a site without allowedDomains redirects nowhere; broken entries count for nothing', () => {
    expect(() => checkRedirectUrl('https://city.example/', undefined)).toThrow(/allowedDomains/);
    expect(() => checkRedirectUrl('https://city.example/', ['http://', '  '])).toThrow(/allowedDomains/);
    expect(() => checkRedirectUrl('https://city.example/', [' City.Example '], 'logout redirectUrl')).not.toThrow();
    expect(() => checkRedirectUrl('nope', [], 'logout redirectUrl')).toThrow('logout redirectUrl must be an absolute URL');
  });

  it('withFragment puts the token where no server sees it, keeping a hash route and dropping an old token', () => {
    expect(withFragment('https://city.example/after-login?x=1', { jwt: 'a.b.c' })).toBe('https://city.example/after-login?x=1#jwt=a.b.c');
    expect(withFragment('https://city.example/#/ideas', { jwt: 'a.b.c' })).toBe('https://city.example/#/ideas&jwt=a.b.c');
    expect(withFragment('https://city.example/#jwt=old&tab=2', { jwt: 'new' })).toBe('https://city.example/#tab=2&jwt=new');
    const read = new URLSearchParams(new URL(withFragment('https://city.example/#%E0%A4&jwt=old', { jwt: 'new' })).hash.slice(1));
    expect(read.getAll('jwt')).toEqual(['new']);
  });

  it('withQuery sets parameters, replacing one of the same name', () => {
    expect(withQuery('https://city.example/a?jwt=old&x=1', { jwt: 'new' })).toBe('https://city.example/a?jwt=new&x=1');
    expect(withQuery(new URL('https://city.example/'), { a: 'b c' })).toBe('https://city.example/?a=b+c');
  });
});

describe('cookies', () => {
  it('reads event.cookies first, the Cookie header otherwise; the first of a name wins; no decoding', () => {
    expect(readCookies(['a=1', 'b = 2 ', 'a=3', 'bad', '=x'], 'a=9')).toEqual({ a: '1', b: '2' });
    expect(readCookies(undefined, 'a=1; b=x%20y; a=2')).toEqual({ a: '1', b: 'x%20y' });
    expect(readCookies([], 'c=3')).toEqual({ c: '3' });
    expect(readCookies(undefined, undefined)).toEqual({});
  });

  it('a name like __proto__ is an ordinary cookie, not a prototype', () => {
    const jar = readCookies(['__proto__=x'], undefined);
    expect(jar['__proto__']).toBe('x');
    expect(Object.getPrototypeOf(jar)).toBeNull();
  });

  it('sets HttpOnly and SameSite=Lax always, Secure when asked', () => {
    expect(serializeCookie('n', 'v', { path: '/oauth/site/1', maxAgeSeconds: 600, secure: true })).toBe('n=v; Path=/oauth/site/1; Max-Age=600; HttpOnly; SameSite=Lax; Secure');
    expect(serializeCookie('n', 'v', { path: '/', maxAgeSeconds: 0, secure: false })).toBe('n=v; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
