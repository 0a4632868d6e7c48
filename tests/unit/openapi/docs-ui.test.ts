/**
 * The docs page (Swagger UI served by the API itself, lib/openapi/docs-ui.ts) and the two documentation
 * handlers: the page loads its scripts and styles from this API only, under a CSP that allows nothing
 * else; every file it names is served with its type (gzip-encoded when the client accepts it); the
 * document and the page are public reads with an ETag. Swagger UI is rendered, and a request sent
 * from it, in a real browser by tests/e2e/docs-page.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DOCS_ASSETS, DOCS_CSP, DOCS_HTML } from '#lib/openapi/docs-ui';
import { DOCS_ASSET_NAMES } from '#schemas/docs';
import { PUBLIC_CACHE_CONTROL } from '#lib/http/caching';
import { handler as docsHandler } from '../../../functions/system/docs.ts';
import { handler as openapiHandler } from '../../../functions/system/openapi.ts';

type Answer = APIGatewayProxyStructuredResultV2 & { headers: Record<string, string | undefined>; body: string };

const get = async (handler: typeof docsHandler, path: string, headers: Record<string, string> = {}) => {
  const event = {
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { origin: 'https://elsewhere.example', ...headers },
    requestContext: { http: { method: 'GET', path }, requestId: 'r1' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  return (await handler(event, { awsRequestId: 'r1' } as Context)) as Answer;
};

const cspHeaders = (headers: Record<string, string>) => Object.entries(headers).filter(([k]) => k.toLowerCase() === 'content-security-policy');
const swaggerUiFile = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`), 'utf8');

describe('the docs page', () => {
  it('loads every script and style from this API, none inline, and its CSP allows nothing else', () => {
    // (`data:,` is the empty icon: no request for /favicon.ico.)
    const sources = [...DOCS_HTML.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => url !== 'data:,');
    expect(sources.sort()).toEqual(DOCS_ASSET_NAMES.map((name) => `/api/docs/${name}`).sort());
    expect(DOCS_HTML).not.toMatch(/<script>|<style>|\son\w+=/);
    expect(DOCS_CSP['default-src']).toBe("'none'");
    expect(DOCS_CSP['script-src']).toBe("'self'");
    expect(DOCS_CSP['connect-src']).toBe("'self'");
    expect(Object.values(DOCS_CSP).filter((v) => typeof v === 'string').join(' ')).not.toMatch(/https?:|\*|unsafe-eval/);
  });

  it('runs Swagger UI on this API’s document, with no validator service', () => {
    const init = DOCS_ASSETS['docs.js'].read();
    expect(() => new Function('SwaggerUIBundle', init)).not.toThrow();
    let options: Record<string, unknown> = {};
    new Function('SwaggerUIBundle', 'window', 'document', init)((o: Record<string, unknown>) => (options = o), {}, { body: { dataset: {} } });
    expect(options).toMatchObject({ url: '/api/openapi.json', validatorUrl: null, dom_id: '#docs' });
  });

  it("is served as HTML with the page CSP as the only CSP, and the API's other security headers", async () => {
    const res = await get(docsHandler, '/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(DOCS_HTML);
    const csp = cspHeaders(res.headers);
    expect(csp).toHaveLength(1);
    const policy = csp[0]![1];
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    // The shared defaults that would stop the page are gone.
    expect(policy).not.toMatch(/sandbox|report-to|upgrade-insecure-requests|report-sample/);
    expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(res.headers['X-Frame-Options']).toBe('DENY');
    expect((await get(docsHandler, '/api/docs/')).body).toBe(DOCS_HTML);
  });

  it.each(DOCS_ASSET_NAMES)('serves %s with its type, gzip-encoded when asked, the same file either way', async (name) => {
    const plain = await get(docsHandler, `/api/docs/${name}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    expect(plain.isBase64Encoded).toBeFalsy();
    if (name.startsWith('swagger-ui')) expect(plain.body).toBe(swaggerUiFile(name));
    const gzipped = await get(docsHandler, `/api/docs/${name}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(gzipped.body, 'base64')).toString('utf8')).toBe(plain.body);
    // Two representations, two tags; each revalidates on its own.
    expect(gzipped.headers.etag).not.toBe(plain.headers.etag);
    expect((await get(docsHandler, `/api/docs/${name}`, { 'if-none-match': plain.headers.etag! })).statusCode).toBe(304);
  });

  it('answers 404 with the error body for a file it does not have', async () => {
    for (const name of ['index.html', '..%2Fpackage.json', 'toString', '__proto__', '%E0%A4%A', '%']) {
      const res = await get(docsHandler, `/api/docs/${name}`);
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ status: 404, error: 'NotFound' });
    }
  });
});

describe('GET /api/openapi.json', () => {
  it('answers the document as JSON, readable cross-origin, the same on every call', async () => {
    const first = await get(openapiHandler, '/api/openapi.json');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const doc = JSON.parse(first.body);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.paths['/api/site/{siteId}/vote'].post.operationId).toBe('voteCast');
    expect((await get(openapiHandler, '/api/openapi.json')).body).toBe(first.body);
    // The API's default CSP (no scripts at all) stays on the JSON.
    expect(cspHeaders(first.headers)[0]![1]).toContain('sandbox');
  });

  it('is a public read: a strong ETag, a short public Cache-Control, 304 for a client that has it', async () => {
    const first = await get(openapiHandler, '/api/openapi.json');
    expect(first.headers.etag).toMatch(/^"[\w-]{43}"$/);
    expect(first.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    const again = await get(openapiHandler, '/api/openapi.json', { 'if-none-match': first.headers.etag! });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
  });
});
