/**
 * Answer shapes (lib/http/response.ts, CONTRACT "Responses") and CORS (lib/http/cors.ts, CONTRACT
 * "Decided details, security"): the allowed origin is echoed, an unknown one never is, and only public
 * GETs answer `*`.
 */
import { describe, expect, it } from 'vitest';
import { ALLOWED_HEADERS, corsHeaders, PUBLIC_ALLOWED_HEADERS } from '#lib/http/cors';
import { created, deleted, httpResponse, jsonResponse, list, locationOf, ok, redirect, text } from '#lib/http/response';

describe('answers', () => {
  it('ok, created, deleted and the list envelope', () => {
    expect(ok({ a: 1 })).toEqual({ statusCode: 200, body: { a: 1 }, headers: undefined });
    expect(ok([], { 'idempotent-replayed': 'true' }).headers).toEqual({ 'idempotent-replayed': 'true' });
    expect(created({ id: 1 })).toEqual({ statusCode: 201, body: { id: 1 } });
    expect(deleted(4)).toEqual({ statusCode: 200, body: { id: 4, deleted: true } });
    expect(list([1, 2], 10, 'c')).toEqual({ statusCode: 200, body: { records: [1, 2], metadata: { pageSize: 10, nextCursor: 'c' } }, headers: undefined });
  });

  it('a redirect is a 302 that no cache keeps, with cookies only when there are any', () => {
    expect(redirect('https://x.example/')).toEqual({ statusCode: 302, headers: { location: 'https://x.example/', 'cache-control': 'no-store' } });
    expect(redirect('https://x.example/', [])).not.toHaveProperty('cookies');
    expect(redirect('https://x.example/', ['a=1']).cookies).toEqual(['a=1']);
  });

  it('JSON with its content type; no body is an empty string, not "undefined"', () => {
    expect(jsonResponse(200, { a: 1 })).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"a":1}' });
    expect(jsonResponse(302, undefined, { location: 'x' })).toEqual({ statusCode: 302, headers: { 'content-type': 'application/json; charset=utf-8', location: 'x' }, body: '' });
    expect(httpResponse(ok({ b: 2 }, { etag: 'e' }))).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8', etag: 'e' }, body: '{"b":2}' });
  });

  it('a text answer goes out as it is, with its own content type and headers', () => {
    const csv = text('a,b\n1,2\n', 'text/csv; charset=utf-8', { link: '<x>; rel="next"' });
    expect(csv).toEqual({ statusCode: 200, body: 'a,b\n1,2\n', contentType: 'text/csv; charset=utf-8', headers: { link: '<x>; rel="next"' } });
    expect(text('x', 'text/plain')).not.toHaveProperty('headers');
    expect(httpResponse(csv)).toEqual({ statusCode: 200, headers: { 'content-type': 'text/csv; charset=utf-8', link: '<x>; rel="next"' }, body: 'a,b\n1,2\n' });
    // A content type with a non-string body is still JSON.
    expect(httpResponse({ statusCode: 200, body: { a: 1 }, contentType: 'text/csv' }).headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    // A string body without a content type is a JSON string, quoted.
    expect(httpResponse(ok('a,b'))).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '"a,b"' });
  });

  it("a create's Location: the route's template, each parameter from the path, the missing one from the new record's id", () => {
    expect(locationOf('/api/site/{siteId}/idea/{ideaId}', { siteId: '3' }, { id: 12, title: 'x' })).toBe('/api/site/3/idea/12');
    expect(locationOf('/api/site/{siteId}', {}, { id: 7 })).toBe('/api/site/7');
    // Path values go back encoded, as they were in the URL.
    expect(locationOf('/api/x/{name}/{id}', { name: 'a b/c' }, { id: 1 })).toBe('/api/x/a%20b%2Fc/1');
    // No numeric id, no Location (rather than a path with "undefined" in it).
    for (const body of [{ id: '12' }, {}, null, undefined, 'text']) expect(locationOf('/api/site/{siteId}', {}, body), JSON.stringify(body)).toBeUndefined();
  });
});

describe('CORS', () => {
  it('an allowed frontend may send every header the API reads; any other origin only those without credentials', () => {
    const names = (list: string) => list.split(/,\s*/).map((h) => h.toLowerCase()).sort();
    expect(names(ALLOWED_HEADERS)).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-authorization']);
    expect(names(PUBLIC_ALLOWED_HEADERS)).toEqual(['content-type', 'idempotency-key']);
  });

  const allowed = ['city.example', 'Portal.Example', 'localhost:5173'];
  const common = {
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-expose-headers': 'WWW-Authenticate, Retry-After, Location, ETag, Vote-Record-Cut',
    'access-control-max-age': '600',
  };
  const refused = { ...common, 'access-control-allow-headers': PUBLIC_ALLOWED_HEADERS, vary: 'Origin' };
  const call = (origin: string | undefined, method: string, carriesCredentials = false) => ({ origin, method, carriesCredentials });
  const preflight = (origin: string | undefined, method: string | undefined, headers?: string) => ({ origin, method: 'OPTIONS', preflight: { method, headers } });

  it('echoes an origin that is an allowed frontend (any port unless the entry names one, any case), for every method, with every header', () => {
    expect(corsHeaders(call('https://city.example:8443', 'POST', true), allowed)).toEqual({
      ...common,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-allow-origin': 'https://city.example:8443',
      vary: 'Origin',
    });
    expect(corsHeaders(call('https://portal.example', 'DELETE'), allowed)['access-control-allow-origin']).toBe('https://portal.example');
    expect(corsHeaders(call('http://localhost:5173', 'PATCH', true), allowed)['access-control-allow-origin']).toBe('http://localhost:5173');
    // The entry names port 5173: another port of the same host is another origin.
    expect(corsHeaders(call('http://localhost:9999', 'PATCH', true), allowed)).toEqual(refused);
  });

  it('a hostile origin: no write, no credentialed read; only anonymous GETs answer *', () => {
    expect(corsHeaders(call('https://evil.example', 'POST'), allowed)).toEqual(refused);
    expect(corsHeaders(call('null', 'POST'), allowed)).toEqual(refused);
    expect(corsHeaders(call('https://evil.example', 'GET', true), allowed)).toEqual(refused);
    const anonymous = corsHeaders(call('https://evil.example', 'get'), allowed);
    expect(anonymous['access-control-allow-origin']).toBe('*');
    expect(anonymous['access-control-allow-headers']).toBe(PUBLIC_ALLOWED_HEADERS);
    expect(corsHeaders(call(undefined, 'POST'), undefined)).toEqual(refused);
    expect(corsHeaders(call('https://city.example', 'POST'), undefined)).toEqual(refused);
  });

  it('a preflight asking for X-Authorization or Authorization is allowed for the allowed origins only, whatever the method', () => {
    const refusedPreflight = { ...refused, vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' };
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const headers of ['x-authorization', 'Authorization', 'content-type, X-Authorization', ' authorization ,content-type']) {
        expect(corsHeaders(preflight('https://evil.example', method, headers), allowed), `${method} ${headers}`).toEqual(refusedPreflight);
        expect(corsHeaders(preflight('https://city.example', method, headers), allowed)['access-control-allow-origin']).toBe('https://city.example');
      }
    }
    // An anonymous GET preflight (a custom header that carries no credentials) keeps *.
    expect(corsHeaders(preflight('https://evil.example', 'GET', 'content-type'), allowed)['access-control-allow-origin']).toBe('*');
    expect(corsHeaders(preflight('https://evil.example', 'GET'), allowed)['access-control-allow-origin']).toBe('*');
    expect(corsHeaders(preflight('https://evil.example', 'POST', 'content-type'), allowed)).toEqual(refusedPreflight);
    expect(corsHeaders(preflight('https://evil.example', undefined), allowed)).toEqual(refusedPreflight);
  });
});

describe('the shared stack applies CORS and security headers to answers and errors alike', async () => {
  const { withHttpStack } = await import('#lib/http/stack');
  const { forbidden } = await import('#lib/errors');
  const event = (origin: string, method: string) => ({ headers: { Origin: origin }, requestContext: { http: { method, path: '/x' } }, rawPath: '/x' });
  const context = () => ({ awsRequestId: 'r', functionName: 'unit', getRemainingTimeInMillis: () => 1000 });
  const handlerThat = (outcome: 'answer' | 'throw') =>
    withHttpStack(async (_e, ctx) => {
      (ctx as unknown as { allowedDomains?: string[] }).allowedDomains = ['city.example'];
      if (outcome === 'throw') throw forbidden('No');
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    });

  it.each([['answer'], ['throw']] as const)('%s: the allowed origin echoed, nosniff set, the body as it was', async (outcome) => {
    const res = (await handlerThat(outcome)(event('https://city.example', 'POST') as never, context() as never)) as { statusCode: number; headers: Record<string, string> };
    expect(res.statusCode).toBe(outcome === 'throw' ? 403 : 200);
    expect(res.headers['access-control-allow-origin']).toBe('https://city.example');
    expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
    const other = (await handlerThat(outcome)(event('https://evil.example', 'POST') as never, context() as never)) as { headers: Record<string, string> };
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS of requests as API Gateway hands them over (method and headers from the event)', async () => {
  const { withHttpStack } = await import('#lib/http/stack');
  const context = () => ({ awsRequestId: 'r', functionName: 'unit', getRemainingTimeInMillis: () => 1000 });
  const answer = withHttpStack(async () => ({ statusCode: 204, headers: {}, body: '' }));
  const call = async (method: string, headers: Record<string, string>) =>
    ((await answer({ headers, requestContext: { http: { method, path: '/x' } }, rawPath: '/x' } as never, context() as never)) as { headers: Record<string, string> }).headers;
  const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

  it('a preflight is judged by what it asks for: an anonymous GET from anywhere, credentials from nowhere else', async () => {
    const anonymous = await call('OPTIONS', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'content-type' });
    expect(anonymous['access-control-allow-origin']).toBe('*');
    expect(anonymous['access-control-allow-headers']).toBe(PUBLIC_ALLOWED_HEADERS);
    expect(anonymous.vary).toBe(PREFLIGHT_VARY);
    const credentialed = await call('OPTIONS', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'X-Authorization' });
    expect(credentialed['access-control-allow-origin']).toBeUndefined();
    expect(credentialed.vary).toBe(PREFLIGHT_VARY);
    const write = await call('OPTIONS', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
    expect(write['access-control-allow-origin']).toBeUndefined();
  });

  it('the method is read in any case; a GET with a token is not an anonymous read', async () => {
    expect((await call('options', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' })).vary).toBe(PREFLIGHT_VARY);
    expect((await call('get', { Origin: 'https://evil.example' }))['access-control-allow-origin']).toBe('*');
    const withToken = await call('GET', { Origin: 'https://evil.example', 'X-Authorization': 'Bearer t' });
    expect(withToken['access-control-allow-origin']).toBeUndefined();
    expect(withToken.vary).toBe('Origin');
  });
});
