/**
 * The login cookie that binds a `state` to the browser that started the login (lib/oauth/state.ts).
 * Scoped to the site's login paths (`<base>/oauth/site/<id>/`, derived from the digest-login callback,
 * so a base path of a custom domain is kept), living as long as the state, HttpOnly, SameSite=Lax
 * (the auth server's redirect back is a top-level GET, which Lax lets through), and Secure except on
 * the local stage served over plain http (browsers drop Secure cookies set over http).
 */
import { env } from '#lib/config/env';
import { serializeCookie } from '#lib/http/cookies';
import { STATE_TTL_SECONDS } from '#lib/oauth/state';

export const LOGIN_COOKIE = 'participation_login_nonce';

function options(callback: string, maxAgeSeconds: number) {
  const url = new URL(callback);
  return {
    path: url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1),
    maxAgeSeconds,
    secure: !env().isLocalStage || url.protocol === 'https:',
  };
}

/** Sets the nonce for the login whose digest-login URL is `callback`. */
export const setLoginCookie = (nonce: string, callback: string): string =>
  serializeCookie(LOGIN_COOKIE, nonce, options(callback, STATE_TTL_SECONDS));

/** Removes it once the login is finished. */
export const clearLoginCookie = (callback: string): string => serializeCookie(LOGIN_COOKIE, '', options(callback, 0));
