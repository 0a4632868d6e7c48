/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document, built from the zod schemas on the first call of a
 * Lambda instance (about 70 ms) and kept for the next ones; a public read (ETag, 304, shared caches:
 * lib/http/caching.ts).
 */
import { buildOpenApiDocument } from '#lib/openapi/document';
import { openapi as openapiRoute } from '#lib/routes/system/openapi';
import { withHttpStack } from '#lib/http/stack';

let body: string | undefined;

export const handler = withHttpStack(
  async () => {
    body ??= JSON.stringify(buildOpenApiDocument());
    return { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
  },
  { cache: openapiRoute.cache },
);
