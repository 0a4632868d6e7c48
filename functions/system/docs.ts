/**
 * `GET /api/docs`: the API's document in Swagger UI, and `GET /api/docs/{asset}`: the page's files,
 * served by this function too (lib/openapi/docs-ui.ts). The page's own CSP replaces the API's default
 * (which forbids scripts altogether).
 */
import { docs as docsRoute } from '#lib/routes/system/docs';
import { DOCS_CSP, DOCS_HTML, DOCS_PATH, docsAsset } from '#lib/openapi/docs-ui';
import { withHttpStack } from '#lib/http/stack';
import { notFound } from '#lib/errors';

/** A file name as sent; broken percent-encoding names no file (a 404, not a thrown URIError). */
function decodedOrUndefined(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

export const handler = withHttpStack(
  async (event) => {
    const path = (event.rawPath ?? event.requestContext.http.path).replace(/\/+$/, '');
    if (path === DOCS_PATH) return { statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: DOCS_HTML };
    const name = decodedOrUndefined(path.slice(DOCS_PATH.length + 1));
    const asset = name === undefined ? undefined : docsAsset(name, event.headers['accept-encoding']);
    if (!asset) throw notFound('No such file on the docs page');
    return {
      statusCode: 200,
      headers: { 'content-type': asset.contentType, ...(asset.gzipped ? { 'content-encoding': 'gzip' } : {}) },
      body: asset.body,
      isBase64Encoded: asset.gzipped,
    };
  },
  { contentSecurityPolicy: DOCS_CSP, cache: docsRoute.cache },
);
