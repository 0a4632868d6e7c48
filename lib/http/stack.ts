/**
 * The one Middy stack every route shares (DESIGN habit 2): API routes through apiHandler
 * (lib/http/handler.ts), the catch-all route and the two documentation routes alike. It imports no
 * store, site or caller code, so a route that needs none of them (the docs) carries none in its bundle.
 *
 *   trace segment + metrics publishing -> header normaliser -> request log -> response counts
 *   -> caching (ETag, 304, Cache-Control) -> security headers -> CORS
 *   -> the CONTRACT error body (registered so it sees every error)
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { cors } from '#lib/http/cors';
import { caching, type CachePolicy } from '#lib/http/caching';
import { errorResponder } from '#lib/http/error-handler';
import { logger } from '#lib/log/logger';
import { observability, responseMetrics } from '#lib/observability/middleware';

interface StackOptions {
  /** The route's operation id, for its metrics (lib/observability/metrics.ts). */
  route?: string;
  /** A route's own Content-Security-Policy (the docs page runs a script; the API's default forbids it). */
  contentSecurityPolicy?: Record<string, string>;
  /** `public`: an anonymous 200 may be kept by shared caches, with an ETag and 304 (lib/http/caching.ts). */
  cache?: CachePolicy;
}

export function withHttpStack(
  run: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>,
  options: StackOptions = {},
) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use([...observability()])
    .use(httpHeaderNormalizer())
    .use(requestLog())
    .use(responseMetrics(options.route))
    // Registered before the headers below, so it sees them (Middy runs `after` in reverse) and a 304
    // keeps them; after the request log and the response counts, so both count the 304.
    .use(caching(options.cache ?? 'none'))
    .use(
      httpSecurityHeaders({
        // The API is called cross-origin by design (CORS), so resources may be read cross-origin.
        crossOriginResourcePolicy: { policy: 'cross-origin' },
        // Middy's list names features browsers do not know (Chromium logs a warning per unknown one on
        // every page); ours below names only known ones, and options merge into Middy's list, so off.
        permissionsPolicy: false,
        ...(options.contentSecurityPolicy ? { contentSecurityPolicy: options.contentSecurityPolicy } : {}),
      }),
    )
    .use(permissionsPolicy())
    .use(cors())
    .use(errorResponder())
    .handler(run);
}

/**
 * Powerful browser features the API's pages (the docs page, a JSON answer opened in a tab) never
 * use, all switched off: only features Chromium, Firefox or Safari know (tests/e2e/docs-page.test.ts
 * loads pages in Chromium and fails on any "Unrecognized feature" warning).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer', 'autoplay', 'camera', 'display-capture', 'encrypted-media', 'fullscreen', 'geolocation', 'gyroscope',
  'magnetometer', 'microphone', 'midi', 'payment', 'picture-in-picture', 'publickey-credentials-get', 'screen-wake-lock',
  'serial', 'sync-xhr', 'usb', 'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

function permissionsPolicy(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const apply = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, 'Permissions-Policy': PERMISSIONS_POLICY };
  };
  return { after: apply, onError: apply };
}

/**
 * One structured line per request; never the token or the body. On Lambda the runtime puts the request
 * id on every line (lib/log/logger.ts); it is written here too so the local stack's line carries it.
 */
function requestLog(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const started = new WeakMap<object, number>();
  const done = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    logger.info('request', {
      requestId: request.context.awsRequestId,
      method: request.event.requestContext?.http?.method,
      route: request.event.routeKey,
      status: request.response?.statusCode,
      ms: Date.now() - (started.get(request) ?? Date.now()),
    });
  };
  return {
    before: (request) => {
      started.set(request, Date.now());
    },
    after: done,
    onError: done,
  };
}
