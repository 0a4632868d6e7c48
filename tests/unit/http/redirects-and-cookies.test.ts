/**
 * No open redirects (lib/oauth/redirect-url.ts, CONTRACT "Login") and the login cookie plumbing
 * (lib/http/cookies.ts), written as the attacks and edge cases they exist for.
 */
import { describe, expect, it } from 'vitest';
import { readCookies } from '#lib/http/cookies';
import { serializeCookie } from '#lib/oauth/login-cookie';
import { checkRedirectUrl, withQuery } from '#lib/oauth/redirect-url';

const allowed = ['city.example', 'https://Portal.Example:8443', 'local.test:3000'];

describe('checkRedirectUrl', () => {
  it.each([
    'https://city.example/after-login',
    'http://city.example:8080/x?y=1',
    'https://portal.example/',
    'https://PORTAL.example/path',
    'http://local.test/',
  ])('takes %s (host in allowedDomains; scheme, port and case of the entry ignored)', (url) => {
    expect(checkRedirectUrl(url, allowed).href).toBe(new URL(url).href);
  });

  it.each([
    ['a relative URL', '/after-login', 'redirectUrl must be an absolute URL'],
    ['a javascript: URL', 'javascript:alert(1)', 'redirectUrl must be an http or https URL'],
    ['credentials before an allowed-looking host', 'https://city.example@evil.example/', 'redirectUrl must not contain credentials'],
    ['a user only', 'https://user@city.example/', 'redirectUrl must not contain credentials'],
    ['another host', 'https://evil.example/', "redirectUrl must point to one of the site's allowedDomains"],
    ['a subdomain of an allowed host', 'https://x.city.example/', "redirectUrl must point to one of the site's allowedDomains"],
    ['an allowed host as a suffix', 'https://evilcity.example/', "redirectUrl must point to one of the site's allowedDomains"],
  ])('refuses %s with a 400 saying why', (_, url, message) => {
    expect(() => checkRedirectUrl(url, allowed)).toThrow(message);
  });

  it('a site without allowedDomains redirects nowhere; broken entries count for nothing', () => {
    expect(() => checkRedirectUrl('https://city.example/', undefined)).toThrow(/allowedDomains/);
    expect(() => checkRedirectUrl('https://city.example/', ['http://', '  '])).toThrow(/allowedDomains/);
    expect(() => checkRedirectUrl('https://city.example/', [' City.Example '], 'logout redirectUrl')).not.toThrow();
    expect(() => checkRedirectUrl('nope', [], 'logout redirectUrl')).toThrow('logout redirectUrl must be an absolute URL');
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
