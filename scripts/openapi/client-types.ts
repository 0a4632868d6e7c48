/**
 * The TypeScript types a frontend generates from the API's OpenAPI document, with openapi-typescript
 * in its default mode (what `npx openapi-typescript https://<api>/api/openapi.json -o schema.d.ts`
 * writes). `npm run typecheck` writes them to examples/typed-client/schema.d.ts (not committed: it is
 * always the document as it is now) and compiles the client written against them there under strict
 * settings: the proof that a generated client reads and writes the API without a cast.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '#lib/openapi/document';

export const CLIENT_TYPES_FILE = 'examples/typed-client/schema.d.ts';

const HEADER =
  '// Generated from GET /api/openapi.json by openapi-typescript (default mode):\n' +
  '// npx tsx scripts/openapi/write-client-types.ts. Do not edit; the document is the source.\n\n';

export async function clientTypes(): Promise<string> {
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Parameters<typeof openapiTS>[0];
  return HEADER + astToString(await openapiTS(document));
}
