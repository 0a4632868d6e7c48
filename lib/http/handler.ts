/**
 * The API Gateway adapter of a route: turns an HTTP API (payload 2.0) event into a `RequestInput` for
 * request setup (lib/request/setup.ts, which loads the site, resolves the caller, validates and reads
 * ahead) and the domain call's result into the HTTP answer, inside the one Middy stack every route
 * shares (lib/http/stack.ts, DESIGN habit 2). What is HTTP stays here: the JSON body's bytes, content
 * type and size (lib/http/body.ts), cookies, CORS, the response shape.
 *
 * Handlers never see the raw event; domain code never sees API Gateway.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { CorsContext } from '#lib/http/cors';
import { withHttpStack } from '#lib/http/stack';
import type { CachePolicy } from '#lib/http/caching';
import { parseJsonBody } from '#lib/http/body';
import { httpResponse, locationOf, type ApiResult } from '#lib/http/response';
import { readCookies } from '#lib/http/cookies';
import { attempt, handleRequest, type Out, type PreparedRequest, type RouteSpec } from '#lib/request/setup';
import type { Site } from '#lib/sites/site';

type AnySchema = z.core.$ZodType;

interface ApiRequest<P, Q, B> extends PreparedRequest<P, Q, B> {
  /** Request cookies by name (lib/http/cookies.ts). */
  cookies: Record<string, string>;
  requestId: string;
}

type SiteRequired<P> = P extends { siteId: number } ? { site: Site } : object;

type RouteHandler<P, Q, B> = (req: ApiRequest<P, Q, B> & SiteRequired<P>) => Promise<ApiResult>;

export function apiHandler<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(spec: RouteSpec<P, Q, B> & { cache?: CachePolicy }, handler: RouteHandler<Out<P>, Out<Q>, Out<B>>) {
  const run = withHttpStack(async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const headers = event.headers as Record<string, string | undefined>;
    const result = await handleRequest(
      spec,
      {
        pathParameters: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        headers,
        body: attempt(() => parseJsonBody(event.body, event.isBase64Encoded, headers['content-type'], spec.bodyMediaType)),
        sourceIp: event.requestContext?.http?.sourceIp,
        timeEpoch: event.requestContext?.timeEpoch,
        isWrite: event.requestContext?.http?.method !== 'GET',
        // Error answers from here on carry the site's CORS origins too.
        onSite: (site) => {
          (context as unknown as CorsContext).allowedDomains = site.config.allowedDomains;
        },
      },
      (request) =>
        handler({
          ...request,
          cookies: readCookies(event.cookies, headers['cookie']),
          requestId: context.awsRequestId,
        } as ApiRequest<Out<P>, Out<Q>, Out<B>> & SiteRequired<Out<P>>),
    );
    // A create answers with the path of what it made (the route declares its template).
    const location = result.statusCode === 201 && spec.success?.location ? locationOf(spec.success.location, event.pathParameters ?? {}, result.body) : undefined;
    const response = httpResponse(location ? { ...result, headers: { ...result.headers, location } } : result);
    return result.cookies ? { ...response, cookies: result.cookies } : response;
  }, { ...(spec.operationId ? { route: spec.operationId } : {}), cache: spec.cache ?? 'none' });
  // The declaration's access class and name travel with the handler, for tests/support/access-check.ts.
  return Object.assign(run, { dataAccess: spec.dataAccess, operationId: spec.operationId });
}
