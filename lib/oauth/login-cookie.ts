/**
 * The login cookie that binds a `state` to the browser that started the login (lib/oauth/state.ts),
 * living as long as the state, HttpOnly, SameSite=Lax (the auth server's redirect back is a top-level
 * GET, which Lax lets through).
 *
 * Served over https (every deployed stage) it is a `__Host-` cookie, Secure with `Path=/`: a browser
 * accepts such a cookie only from this very host and never with a `Domain` attribute, so a frontend
 * on a sibling subdomain (another tenant's, say) cannot plant a nonce of its own for the victim's
 * browser ("cookie tossing", which would bring login CSRF back). The prefix needs `Path=/`, so the
 * site id goes into the name: logins on two sites in one browser do not overwrite each other.
 * Over plain http (the local stage only; browsers drop Secure cookies set over http) the prefix cannot
 * be used, and the path scopes the cookie to the site's login paths instead (`<base>/oauth/site/<id>/`,
 * derived from the digest-login callback, so a base path of a custom domain is kept).
 */
import { env } from '#lib/config/env';
import { STATE_TTL_SECONDS } from '#lib/oauth/state';

const BASE_NAME = 'participation_login_nonce';

interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  secure: boolean;
}

/** A `Set-Cookie` value: always HttpOnly and SameSite=Lax (sent on the top-level redirect back from the auth server). */
export function serializeCookie(name: string, value: string, { path, maxAgeSeconds, secure }: CookieOptions): string {
  return [`${name}=${value}`, `Path=${path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

/** The cookie's name and scope for the login whose digest-login URL is `callback`. */
export function loginCookie(callback: string, maxAgeSeconds = STATE_TTL_SECONDS): { name: string } & CookieOptions {
  const url = new URL(callback);
  const secure = !env().isLocalStage || url.protocol === 'https:';
  const loginPaths = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
  if (!secure) return { name: BASE_NAME, path: loginPaths, maxAgeSeconds, secure };
  const siteId = /\/oauth\/site\/(\d+)\/$/.exec(loginPaths)?.[1] ?? '0';
  return { name: `__Host-${BASE_NAME}_${siteId}`, path: '/', maxAgeSeconds, secure };
}

/** Sets the nonce for the login whose digest-login URL is `callback`. */
export function setLoginCookie(nonce: string, callback: string): string {
  const { name, ...options } = loginCookie(callback);
  return serializeCookie(name, nonce, options);
}

/** Removes it once the login is finished. */
export function clearLoginCookie(callback: string): string {
  const { name, ...options } = loginCookie(callback, 0);
  return serializeCookie(name, '', options);
}
