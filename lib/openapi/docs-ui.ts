/**
 * `GET /api/docs`: the OpenAPI document (`/api/openapi.json`) rendered by Swagger UI (npm
 * `swagger-ui-dist`, kept by the OpenAPI Initiative's Swagger team), with every example and "Try it
 * out" against the server that serves the page. Its files are served by this API itself
 * (`GET /api/docs/{asset}`, read from the package at the first request of an instance): the page
 * loads nothing from anywhere else, which its Content-Security-Policy says too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { DocsAssetName } from '#schemas/docs';

export const DOCS_PATH = '/api/docs';

/** What the page runs: Swagger UI on our document, "Try it out" against the server that serves it. */
const INIT_SCRIPT = `'use strict';
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#docs',
  deepLinking: true,
  filter: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  showExtensions: true,
  validatorUrl: null,
  onComplete: function () { document.body.dataset.state = 'ready'; },
});
`;

/** The page's own rules on top of Swagger UI's stylesheet: no top bar, a readable width. */
const PAGE_STYLE = `body { margin: 0; }
#docs .swagger-ui .wrapper { max-width: 1200px; }
`;

interface Asset {
  contentType: string;
  read: () => string;
}

/** Files in the swagger-ui-dist package (packaged with the docs function: lib/routes/system/docs-asset.ts). */
const fromSwaggerUi = (file: string) => () => readFileSync(join(dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')), file), 'utf8');

export const DOCS_ASSETS: Record<DocsAssetName, Asset> = {
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', read: fromSwaggerUi('swagger-ui-bundle.js') },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', read: fromSwaggerUi('swagger-ui.css') },
  'docs.js': { contentType: 'text/javascript; charset=utf-8', read: () => INIT_SCRIPT },
  'docs.css': { contentType: 'text/css; charset=utf-8', read: () => PAGE_STYLE },
};

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Participation API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${DOCS_PATH}/docs.css">
</head>
<body data-state="loading">
<div id="docs"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/docs.js"></script>
</body>
</html>
`;

const off = false as unknown as string;
/**
 * Scripts, styles and requests from this origin only. Swagger UI renders with React, which writes
 * styles into `style` attributes (hence `'unsafe-inline'` for styles, never for scripts), shows
 * images as data URLs, and writes the documents' Markdown as HTML it sanitises itself (DOMPurify), so
 * the API's Trusted Types requirement is off here, as are its other defaults that would stop the
 * page (sandbox, reporting, upgrade).
 */
export const DOCS_CSP: Record<string, string> = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
  'require-trusted-types-for': off,
  'trusted-types': off,
  sandbox: off,
  'report-to': off,
  'upgrade-insecure-requests': off,
};

/** An asset's body as sent: read once per instance, and gzipped once when the client accepts it. */
const cache = new Map<string, { text: string; gzip?: string }>();

export function docsAsset(name: string, acceptEncoding: string | undefined): { contentType: string; body: string; gzipped: boolean } | undefined {
  const asset = Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name as DocsAssetName] : undefined;
  if (!asset) return undefined;
  let entry = cache.get(name);
  if (!entry) cache.set(name, (entry = { text: asset.read() }));
  if (!/\bgzip\b/.test(acceptEncoding ?? '')) return { contentType: asset.contentType, body: entry.text, gzipped: false };
  entry.gzip ??= gzipSync(entry.text).toString('base64');
  return { contentType: asset.contentType, body: entry.gzip, gzipped: true };
}
