/**
 * This API's own public base URL, for the `redirect_uri` it hands to the auth server. `PUBLIC_BASE_URL`
 * wins when set (custom domains, proxies that rewrite Host); otherwise it comes from the request's
 * Host and `x-forwarded-proto` headers, which API Gateway and serverless-offline both set. The auth
 * server must check `redirect_uri` against the client's registration, so a forged Host header can at
 * most break the login, not steal a code.
 */
import { env } from '#lib/config/env';
import { badRequest } from '#lib/errors';

// Read once at cold start (DESIGN habit 5).
const configured = parseBaseUrl(env().publicBaseUrl);

function parseBaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_BASE_URL must be an http(s) URL');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;
const LOCAL_HOSTS = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::[0-9]+)?$/i;

export function publicBaseUrl(headers: Record<string, string | undefined>): string {
  if (configured) return configured;
  // Not x-forwarded-host: API Gateway passes it through from the client unchecked.
  const host = headers['host'];
  if (!host || !HOST.test(host)) throw badRequest('The request has no valid Host header');
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const proto = forwarded === 'http' || forwarded === 'https' ? forwarded : LOCAL_HOSTS.test(host) ? 'http' : 'https';
  return `${proto}://${host.toLowerCase()}`;
}
