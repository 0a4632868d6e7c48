/**
 * CORS per CONTRACT ("Decided details", "Decided details, security"):
 *
 * - an Origin that is one of the site's `allowedDomains` frontends (lib/sites/allowed-domains.ts) is
 *   echoed, for every method, with every header of the API allowed;
 * - anonymous public reads answer `*`: a GET that carries no credentials (`X-Authorization`,
 *   `Authorization`), and a preflight for a GET that asks for neither header;
 * - anything else gets no `Access-Control-Allow-Origin`, so the browser refuses it. In particular a
 *   preflight asking for `X-Authorization` or `Authorization` from another origin is refused whatever
 *   the method: a page of another origin cannot make a browser send a token it holds for this API.
 *
 * Runs in `after` and `onError`, so error answers carry the same headers.
 */
import type middy from '@middy/core';
import { isAllowedFrontend } from '#lib/sites/allowed-domains';
import { RECORD_CUT_HEADER } from '#lib/errors';

/** Headers the API reads; the first two carry credentials. */
const CREDENTIAL_HEADERS = ['x-authorization', 'authorization'];

/** Whether a request carries credentials (headers already lower-cased by the header normaliser). */
export const carriesCredentials = (headers: Record<string, string | undefined> | undefined): boolean =>
  CREDENTIAL_HEADERS.some((name) => headers?.[name] !== undefined);
export const ALLOWED_HEADERS = 'X-Authorization, Authorization, Content-Type, Idempotency-Key';
/** What an anonymous read from any origin may send (no credentials). */
export const PUBLIC_ALLOWED_HEADERS = 'Content-Type, Idempotency-Key';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** What the route learnt about the site, shared with this middleware through the Lambda context. */
export interface CorsContext {
  allowedDomains?: string[];
}

/** What a request says that CORS decides on. */
interface CorsRequest {
  origin: string | undefined;
  method: string;
  /** A preflight's `Access-Control-Request-Method` and `Access-Control-Request-Headers`. */
  preflight?: { method: string | undefined; headers: string | undefined };
  /** Whether the (non-preflight) request carries `X-Authorization` or `Authorization`. */
  carriesCredentials?: boolean;
}

const isAllowedOrigin = (origin: string | undefined, allowedDomains: readonly string[] | undefined): boolean => {
  if (!origin) return false;
  try {
    return isAllowedFrontend(new URL(origin), allowedDomains);
  } catch {
    return false;
  }
};

const asksForCredentials = (requestHeaders: string | undefined): boolean =>
  (requestHeaders ?? '').split(',').some((h) => CREDENTIAL_HEADERS.includes(h.trim().toLowerCase()));

/** Whether the request is an anonymous public read, which any origin may make. */
function isAnonymousRead(request: CorsRequest): boolean {
  if (request.preflight) return (request.preflight.method ?? '').toUpperCase() === 'GET' && !asksForCredentials(request.preflight.headers);
  return request.method.toUpperCase() === 'GET' && request.carriesCredentials !== true;
}

export function corsHeaders(request: CorsRequest, allowedDomains: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-expose-headers': `WWW-Authenticate, Retry-After, Location, ETag, ${RECORD_CUT_HEADER}`,
    'access-control-max-age': '600',
    // A preflight's answer also depends on what it asks for; a cache must not answer one with another's.
    vary: request.preflight ? 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' : 'Origin',
  };
  if (isAllowedOrigin(request.origin, allowedDomains)) {
    headers['access-control-allow-headers'] = ALLOWED_HEADERS;
    headers['access-control-allow-origin'] = request.origin!;
  } else if (isAnonymousRead(request)) {
    headers['access-control-allow-headers'] = PUBLIC_ALLOWED_HEADERS;
    headers['access-control-allow-origin'] = '*';
  } else {
    headers['access-control-allow-headers'] = PUBLIC_ALLOWED_HEADERS;
  }
  return headers;
}

type CorsEvent = { headers?: Record<string, string | undefined>; requestContext?: { http?: { method?: string } } };

/** The CORS facts of an API Gateway event (headers already lower-cased by the header normaliser). */
export function corsRequestOf(event: CorsEvent): CorsRequest {
  const headers = event.headers ?? {};
  const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase();
  if (method === 'OPTIONS') {
    return { origin: headers.origin, method, preflight: { method: headers['access-control-request-method'], headers: headers['access-control-request-headers'] } };
  }
  return { origin: headers.origin, method, carriesCredentials: carriesCredentials(headers) };
}

export function cors(): middy.MiddlewareObj<CorsEvent> {
  const apply = (request: middy.Request<CorsEvent>) => {
    const response = request.response as { headers?: Record<string, string> } | undefined;
    if (!response) return;
    const ctx = request.context as unknown as CorsContext;
    response.headers = { ...corsHeaders(corsRequestOf(request.event), ctx.allowedDomains), ...response.headers };
  };
  return { after: apply, onError: apply };
}
