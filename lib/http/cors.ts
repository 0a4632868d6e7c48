/**
 * CORS per CONTRACT: the request's Origin is echoed when its host is in the site's `allowedDomains`;
 * public GETs (and their preflights) may answer `*`; the API's headers are always allowed.
 * Runs in `after` and `onError`, so error answers carry the same headers.
 */
import type middy from '@middy/core';

export const ALLOWED_HEADERS = 'X-Authorization, Authorization, Content-Type, Idempotency-Key';
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

/** What the route learnt about the site, shared with this middleware through the Lambda context. */
export interface CorsContext {
  allowedDomains?: string[];
}

export function originHost(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function corsHeaders(
  origin: string | undefined,
  method: string,
  allowedDomains: string[] | undefined,
  preflightMethod?: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-expose-headers': 'WWW-Authenticate, Retry-After',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
  const host = originHost(origin);
  const allowed = (allowedDomains ?? []).map((d) => d.toLowerCase());
  if (origin && host && allowed.includes(host)) {
    headers['access-control-allow-origin'] = origin;
  } else if ((preflightMethod ?? method).toUpperCase() === 'GET') {
    headers['access-control-allow-origin'] = '*';
  }
  return headers;
}

export function cors(): middy.MiddlewareObj<{ headers?: Record<string, string | undefined>; requestContext?: { http?: { method?: string } } }> {
  const apply = (request: middy.Request<{ headers?: Record<string, string | undefined>; requestContext?: { http?: { method?: string } } }>) => {
    const response = request.response as { headers?: Record<string, string> } | undefined;
    if (!response) return;
    const ctx = request.context as unknown as CorsContext;
    const method = request.event.requestContext?.http?.method ?? 'GET';
    response.headers = {
      ...corsHeaders(request.event.headers?.origin, method, ctx.allowedDomains),
      ...response.headers,
    };
  };
  return { after: apply, onError: apply };
}
