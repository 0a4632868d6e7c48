import type { Route } from '#lib/routes/route';
import { docsAssetParams } from '#schemas/docs';

export const docsAsset = {
  operationId: 'docsAsset',
  functionName: 'docs',
  method: 'GET',
  path: '/api/docs/{asset}',
  handler: 'functions/system/docs',
  dataAccess: 'static',
  params: docsAssetParams,
  tag: 'System',
  summary: 'A file of the docs page (Swagger UI and the page’s own script and style)',
  description: 'Served by the API itself, so the page loads nothing from elsewhere; gzip-encoded for a client that accepts it.',
  access: 'everyone',
  auth: 'none',
  cache: 'public',
  // Swagger UI's files are read from the package at run time: the function's package carries them.
  packageFiles: ['node_modules/swagger-ui-dist/package.json', 'node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'node_modules/swagger-ui-dist/swagger-ui.css'],
  success: { status: 200, schema: 'DocsAsset' },
} satisfies Route;
