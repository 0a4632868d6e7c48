/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document, built from the zod schemas on the first call of a
 * Lambda instance (about 70 ms) and kept for the next ones.
 */
import { buildOpenApiDocument } from '#lib/openapi/document';
import { withHttpStack } from '#lib/http/stack';

let body: string | undefined;

export const handler = withHttpStack(async () => {
  body ??= JSON.stringify(buildOpenApiDocument());
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' },
    body,
  };
});
