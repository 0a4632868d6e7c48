/**
 * The redirectUrl rule (CONTRACT "Decided details" and "Decided details, security"): an absolute URL
 * that is one of the site's allowed frontends (lib/sites/allowed-domains.ts: its host in
 * `allowedDomains`, and its port too when the entry names one), over `https` outside the local
 * stage; else 400. No open redirects, and no token sent in clear: login and logout only ever send
 * people, and the JWT a login hands back, to the site's own frontends.
 */
import { env } from '#lib/config/env';
import { badRequest } from '#lib/errors';
import { isAllowedFrontend } from '#lib/sites/allowed-domains';

export function checkRedirectUrl(
  raw: string,
  allowedDomains: readonly string[] | undefined,
  what = 'redirectUrl',
  isLocalStage: boolean = env().isLocalStage,
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`${what} must be an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(isLocalStage && url.protocol === 'http:')) {
    throw badRequest(isLocalStage ? `${what} must be an http or https URL` : `${what} must be an https URL`);
  }
  // `https://allowed.example@evil.example/` has hostname evil.example, but credentials in a redirect
  // target are never legitimate, so refuse them outright.
  if (url.username || url.password) throw badRequest(`${what} must not contain credentials`);
  if (!isAllowedFrontend(url, allowedDomains)) {
    throw badRequest(`${what} must point to one of the site's allowedDomains`);
  }
  return url;
}

/** The URL with these query parameters set (replacing any of the same name). */
export function withQuery(url: string | URL, params: Record<string, string>): string {
  const out = new URL(url);
  for (const [key, value] of Object.entries(params)) out.searchParams.set(key, value);
  return out.toString();
}

/**
 * The parameter a login hands the JWT back in (`?jwt=` or `#jwt=`), as OpenStad's clients read it.
 * A URL carrying it in its query holds a live token: caches must never keep an answer to it.
 */
export const TOKEN_PARAM = 'jwt';

/**
 * The URL with these parameters in its fragment (`#jwt=...`), which browsers never send to a server:
 * the token stays out of the frontend's access logs, proxies and Referer headers. A fragment the URL
 * already has (a hash router's `#/after-login`) is kept, with the parameters added after an `&` and
 * any earlier value of the same name dropped, so `new URLSearchParams(location.hash.slice(1))`
 * reads each name once.
 */
export function withFragment(url: string | URL, params: Record<string, string>): string {
  const out = new URL(url);
  const names = new Set(Object.keys(params));
  const kept = out.hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !names.has(part.split('=')[0]!));
  out.hash = [...kept, new URLSearchParams(params).toString()].join('&');
  return out.toString();
}
