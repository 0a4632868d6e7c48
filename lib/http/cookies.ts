/**
 * Cookies of API Gateway HTTP API payload 2.0: requests carry them in `event.cookies` (one `name=value`
 * per entry; the `cookie` header is read when a front door passed it through instead), responses set
 * them with the `cookies` array (serverless-offline does the same; lib/http/handler.ts passes a
 * result's `cookies` on). The API uses exactly one: the login nonce, whose `Set-Cookie` value
 * lib/oauth/login-cookie.ts writes.
 */

/** `name=value` pairs of a request; the first of a repeated name wins, values are not decoded. */
export function readCookies(eventCookies: readonly string[] | undefined, cookieHeader: string | undefined): Record<string, string> {
  const pairs = eventCookies?.length ? eventCookies : (cookieHeader ?? '').split(';');
  const out: Record<string, string> = Object.create(null);
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (!(name in out)) out[name] = pair.slice(at + 1).trim();
  }
  return out;
}
