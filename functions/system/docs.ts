/**
 * `GET /api/docs`: a readable page of the OpenAPI document. The page is static; its script loads
 * `openapi.json`. Its own CSP replaces the API's default (which forbids scripts altogether).
 */
import { DOCS_CSP, DOCS_HTML } from '#lib/openapi/docs-page';
import { withHttpStack } from '#lib/http/stack';

export const handler = withHttpStack(
  async () => ({
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' },
    body: DOCS_HTML,
  }),
  { contentSecurityPolicy: DOCS_CSP },
);
