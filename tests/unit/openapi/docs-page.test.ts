/**
 * The docs page and the two documentation handlers: the page's CSP allows exactly its own inline script
 * and style (by hash), the script compiles, and the handlers answer with the right type and headers.
 * The page is rendered in a real browser by tests/e2e/docs-page.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DOCS_CSP, DOCS_HTML, DOCS_SCRIPT } from '#lib/openapi/docs-page';
import { handler as docsHandler } from '../../../functions/system/docs.ts';
import { handler as openapiHandler } from '../../../functions/system/openapi.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const inline = (tag: string) => [...DOCS_HTML.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);

const get = async (handler: typeof docsHandler, path: string) => {
  const event = {
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { origin: 'https://elsewhere.example' },
    requestContext: { http: { method: 'GET', path }, requestId: 'r1' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  return (await handler(event, { awsRequestId: 'r1' } as Context)) as APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };
};

const cspHeaders = (headers: Record<string, string>) => Object.entries(headers).filter(([k]) => k.toLowerCase() === 'content-security-policy');

describe('the docs page', () => {
  it('has one inline script and one inline style, each allowed by its hash and nothing else', () => {
    const scripts = inline('script');
    const styles = inline('style');
    expect(scripts).toEqual([DOCS_SCRIPT]);
    expect(styles).toHaveLength(1);
    expect(DOCS_CSP['script-src']).toBe(hash(scripts[0]!));
    expect(DOCS_CSP['style-src']).toBe(hash(styles[0]!));
    expect(DOCS_CSP['default-src']).toBe("'none'");
    expect(DOCS_CSP['connect-src']).toBe("'self'");
    expect(Object.values(DOCS_CSP).join(' ')).not.toMatch(/unsafe|https?:|\*/);
  });

  it('loads nothing from elsewhere and builds its DOM without HTML sinks', () => {
    expect(DOCS_HTML).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(DOCS_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    // It compiles (the browser test runs it).
    expect(() => new Function(DOCS_SCRIPT)).not.toThrow();
  });

  it('is served as HTML with the page CSP as the only CSP, and the API\'s other security headers', async () => {
    const res = await get(docsHandler, '/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(DOCS_HTML);
    const csp = cspHeaders(res.headers);
    expect(csp).toHaveLength(1);
    const policy = csp[0]![1];
    expect(policy).toContain(`script-src ${DOCS_CSP['script-src']}`);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("require-trusted-types-for 'script'");
    // The shared defaults that would stop the page are gone.
    expect(policy).not.toMatch(/sandbox|report-to|upgrade-insecure-requests|report-sample/);
    expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(res.headers['X-Frame-Options']).toBe('DENY');
  });
});

describe('GET /api/openapi.json', () => {
  it('answers the document as JSON, readable cross-origin, the same on every call', async () => {
    const first = await get(openapiHandler, '/api/openapi.json');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const doc = JSON.parse(first.body as string);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.paths['/api/site/{siteId}/vote'].post.operationId).toBe('voteCast');
    expect((await get(openapiHandler, '/api/openapi.json')).body).toBe(first.body);
    // The API's default CSP (no scripts at all) stays on the JSON.
    expect(cspHeaders(first.headers)[0]![1]).toContain('sandbox');
  });
});
