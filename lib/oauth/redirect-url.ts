/**
 * The redirectUrl rule (CONTRACT "Decided details"): an absolute http(s) URL whose hostname equals one
 * of the site's `allowedDomains` (port ignored), else 400. No open redirects: login and logout only
 * ever send people back to the site's own frontends.
 */
import { badRequest } from '#lib/errors';

/** An `allowedDomains` entry as a bare host name; tolerates a scheme or port written by habit. */
function hostOf(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//.test(trimmed)) return new URL(trimmed).hostname;
  } catch {
    return '';
  }
  return trimmed.replace(/:\d+$/, '');
}

export function checkRedirectUrl(raw: string, allowedDomains: readonly string[] | undefined, what = 'redirectUrl'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`${what} must be an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`${what} must be an http or https URL`);
  // `https://allowed.example@evil.example/` has hostname evil.example, but credentials in a redirect
  // target are never legitimate, so refuse them outright.
  if (url.username || url.password) throw badRequest(`${what} must not contain credentials`);
  const allowed = (allowedDomains ?? []).map(hostOf).filter(Boolean);
  if (!allowed.includes(url.hostname.toLowerCase())) {
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
