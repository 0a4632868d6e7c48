/**
 * The middleware stack of the two documentation routes. It is the shared stack of lib/http/handler.ts
 * (header normaliser, security headers, CORS, the CONTRACT error body) without what those routes do not
 * need: no site, no caller, no DynamoDB. Importing lib/http/handler would pull the store and the AWS SDK
 * into these bundles for nothing.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { cors } from '#lib/http/cors';
import { errorResponder } from '#lib/http/error-handler';

export function docsRoute(
  run: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>,
  options: { contentSecurityPolicy?: Record<string, string> } = {},
) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(httpHeaderNormalizer())
    .use(
      httpSecurityHeaders({
        // As the shared stack: the API is read cross-origin by design (tools load openapi.json).
        crossOriginResourcePolicy: { policy: 'cross-origin' },
        ...(options.contentSecurityPolicy ? { contentSecurityPolicy: options.contentSecurityPolicy } : {}),
      }),
    )
    .use(cors())
    .use(errorResponder())
    .handler(run);
}
