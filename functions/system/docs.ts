/**
 * `GET /api/docs`: the API's document in Swagger UI, and `GET /api/docs/{asset}`: the page's files,
 * served by this function too (lib/openapi/docs-ui.ts). The page's own CSP replaces the API's default
 * (which forbids scripts altogether).
 */
import { docs as docsRoute } from '#lib/routes/system/docs';
import { DOCS_CSP, DOCS_HTML, DOCS_PATH, docsAsset } from '#lib/openapi/docs-ui';
import { withHttpStack } from '#lib/http/stack';
import { notFound } from '#lib/errors';

export const handler = withHttpStack(
  async (event) => {
    const path = (event.rawPath ?? event.requestContext.http.path).replace(/\/+$/, '');
    if (path === DOCS_PATH) return { statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: DOCS_HTML };
    const name = decodeURIComponent(path.slice(DOCS_PATH.length + 1));
    const asset = docsAsset(name, event.headers['accept-encoding']);
    if (!asset) throw notFound(`No file ${name} on the docs page`);
    return {
      statusCode: 200,
      headers: { 'content-type': asset.contentType, ...(asset.gzipped ? { 'content-encoding': 'gzip' } : {}) },
      body: asset.body,
      isBase64Encoded: asset.gzipped,
    };
  },
  { contentSecurityPolicy: DOCS_CSP, cache: docsRoute.cache },
);
