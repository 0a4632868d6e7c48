/**
 * Which routes are public reads, and what the caching step does with an answer (lib/http/caching.ts):
 * only an anonymous GET of a public route answered 200 gets a tag and a public Cache-Control; a
 * handler's own Cache-Control stands; a 304 keeps the headers but the body's. The answers of real
 * handlers with tokens, Basic Auth and errors: tests/integration/security/public-cache-attacks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ROUTES } from '#lib/openapi/routes';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '#lib/http/caching';
import { withHttpStack } from '#lib/http/stack';
import { etagOf } from '#lib/crypto/etag';

const event = (method: string, headers: Record<string, string> = {}) =>
  ({ version: '2.0', routeKey: `${method} /x`, rawPath: '/x', headers, requestContext: { http: { method, path: '/x' }, requestId: 'r' } }) as unknown as APIGatewayProxyEventV2;

const answering = (response: APIGatewayProxyStructuredResultV2, cache: 'public' | 'none' = 'public') =>
  withHttpStack(async () => structuredClone(response), { cache }) as unknown as (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2 & { headers: Record<string, string>; body: string }>;
const context = { awsRequestId: 'r' } as Context;
const OK = { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"a":1}' };

describe('public routes', () => {
  it('are reads anyone may make: GETs whose token is optional or not read', () => {
    const publicRoutes = ROUTES.filter((r) => r.cache === 'public');
    expect(publicRoutes.map((r) => r.operationId).sort()).toEqual(
      ['articleGet', 'articleList', 'docs', 'docsAsset', 'ideaGet', 'ideaList', 'ideaMarkerList', 'openapi', 'siteGet', 'siteList', 'tagList'].sort(),
    );
    for (const route of publicRoutes) {
      expect(route.method, route.operationId).toBe('GET');
      expect(route.auth, route.operationId).not.toBe('required');
    }
  });
});

describe('the caching step', () => {
  it('tags an anonymous 200 of a public route, varies it on credentials and Origin, and answers its tag with a bodiless 304', async () => {
    const handler = answering(OK);
    const first = await handler(event('GET', { origin: 'https://a.example' }), context);
    expect(first.headers.etag).toBe(etagOf(OK.body));
    expect(first.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    expect(first.headers.vary!.split(/,\s*/)).toEqual(expect.arrayContaining(['Origin', 'X-Authorization', 'Authorization']));
    const second = await handler(event('GET', { origin: 'https://a.example', 'if-none-match': first.headers.etag! }), context);
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
    expect(second.headers['content-type']).toBeUndefined();
    expect(second.headers['access-control-allow-origin']).toBe('*');
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('makes any answer to a request with credentials private, with no tag and no 304', async () => {
    for (const credentials of [{ 'x-authorization': 'Bearer t' }, { authorization: 'Basic dTpw' }, { authorization: 'Bearer t' }] as Record<string, string>[]) {
      const res = await answering(OK)(event('GET', { ...credentials, 'if-none-match': '*' }), context);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('keeps everything else out of caches: other routes, other methods, other statuses', async () => {
    for (const [response, cache, method] of [
      [OK, 'none', 'GET'],
      [OK, 'public', 'POST'],
      [{ ...OK, statusCode: 201 }, 'public', 'GET'],
      [{ ...OK, statusCode: 404 }, 'public', 'GET'],
    ] as const) {
      const res = await answering(response, cache)(event(method, { 'if-none-match': '*' }), context);
      expect(res.statusCode).toBe(response.statusCode);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it("leaves a handler's own Cache-Control alone", async () => {
    const res = await answering({ ...OK, headers: { ...OK.headers, 'cache-control': 'no-cache' } })(event('GET'), context);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeUndefined();
  });

  it("overrides a handler's public Cache-Control when the request carries credentials of any kind", async () => {
    const own = answering({ ...OK, headers: { ...OK.headers, 'Cache-Control': 'public, max-age=60' } });
    const credentials: Record<string, string>[] = [{ authorization: 'Bearer ' }, { authorization: 'Token abc' }, { authorization: 'Basic YTpi' }, { 'x-authorization': 'garbage' }];
    for (const headers of credentials) {
      const res = await own(event('GET', headers), context);
      expect(res.headers['cache-control'], JSON.stringify(headers)).toBe(PRIVATE_CACHE_CONTROL);
      expect(Object.keys(res.headers).filter((k) => k.toLowerCase() === 'cache-control')).toHaveLength(1);
    }
  });
});
