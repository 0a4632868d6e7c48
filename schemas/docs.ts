import '#schemas/zod-setup';
import * as z from 'zod/mini';

/** The files of the docs page (`GET /api/docs/{asset}`, lib/openapi/docs-ui.ts): Swagger UI's and the page's own. */
export const DOCS_ASSET_NAMES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'docs.js', 'docs.css'] as const;
export type DocsAssetName = (typeof DOCS_ASSET_NAMES)[number];

export const docsAssetParams = z.object({ asset: z.enum(DOCS_ASSET_NAMES) });
