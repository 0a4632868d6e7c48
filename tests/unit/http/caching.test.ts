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

const event = (method: string, headers: Record<string, string> = {}, query?: Record<string, string>) =>
  ({ version: '2.0', routeKey: `${method} /x`, rawPath: '/x', headers, queryStringParameters: query, requestContext: { http: { method, path: '/x' }, requestId: 'r' } }) as unknown as APIGatewayProxyEventV2;

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

describe('the Cache-Control values, as caches read them', () => {
  const directives = (value: string | undefined) => (value ?? '').split(/,\s*/).sort();

  it('private and no-store with credentials (neither a shared cache nor the browser keeps it), no-store otherwise', async () => {
    expect(directives((await answering(OK)(event('GET', { 'x-authorization': 'Bearer t' }), context)).headers['cache-control'])).toEqual(['no-store', 'private']);
    expect(directives((await answering(OK)(event('POST'), context)).headers['cache-control'])).toEqual(['no-store']);
  });

  it('a public read: public for a minute, then served stale for five more while it is asked again', async () => {
    expect(directives((await answering(OK)(event('GET'), context)).headers['cache-control'])).toEqual(['max-age=60', 'public', 'stale-while-revalidate=300']);
  });
});

describe('the caching step, what a cache keys on', () => {
  const varyOf = (headers: Record<string, string>) => {
    const keys = Object.keys(headers).filter((k) => k.toLowerCase() === 'vary');
    expect(keys).toEqual(['vary']);
    return headers.vary!.split(', ');
  };

  it('a public answer varies on Origin, both credential headers and Accept-Encoding, each named once', async () => {
    const res = await answering(OK)(event('GET', { origin: 'https://a.example' }), context);
    expect(varyOf(res.headers).sort()).toEqual(['Accept-Encoding', 'Authorization', 'Origin', 'X-Authorization']);
  });

  it("keeps a handler's own Vary names, merged with the public ones into one header, each once whatever its case", async () => {
    const res = await answering({ ...OK, headers: { ...OK.headers, Vary: 'Accept-Language ,accept-encoding, ' } })(event('GET'), context);
    expect(varyOf(res.headers).sort()).toEqual(['Accept-Language', 'Authorization', 'Origin', 'X-Authorization', 'accept-encoding']);
    expect(res.headers.etag).toBe(etagOf(OK.body));
  });

  it("a URL carrying a login's token (?jwt=) is answered private, like a request with credentials", async () => {
    const res = await answering(OK)(event('GET', { 'if-none-match': etagOf(OK.body) }, { jwt: 'eyJ.x.y' }), context);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(res.headers.etag).toBeUndefined();
    expect((await answering(OK)(event('GET', {}, { page: '2' }), context)).headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
  });

  it('a private answer keeps every other header: its content type, the CORS and security headers', async () => {
    const res = await answering(OK)(event('GET', { origin: 'https://a.example', authorization: 'Bearer t' }), context);
    expect(res.headers['content-type']).toBe(OK.headers['content-type']);
    expect(res.headers['access-control-allow-methods']).toBeDefined();
    expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(res.body).toBe(OK.body);
  });

  it('a public 200 without a body is not tagged or kept', async () => {
    const res = await answering({ statusCode: 200, headers: {} } as APIGatewayProxyStructuredResultV2)(event('GET'), context);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('events without what API Gateway adds (a direct invocation, a console test event)', () => {
  it('are answered, not crashed: without a method uncacheable, though CORS takes it for the anonymous read it most likely is', async () => {
    const handler = answering(OK);
    const bare = [{}, { requestContext: {} }, { requestContext: { http: {} } }] as unknown as APIGatewayProxyEventV2[];
    for (const e of bare) {
      const res = await handler(e, context);
      expect(res.statusCode, JSON.stringify(e)).toBe(200);
      expect(res.body).toBe(OK.body);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    const noHeaders = await handler({ requestContext: { http: { method: 'GET' } } } as unknown as APIGatewayProxyEventV2, context);
    expect(noHeaders.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    expect(noHeaders.headers.etag).toBe(etagOf(OK.body));
  });
});
