/**
 * serverless.yml and the OpenAPI document describe the same routes: every HTTP API route is documented
 * and every documented operation is a route (the `$default` catch-all excepted).
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '#lib/openapi/document';
import { ROUTES, TAGS } from '#lib/openapi/routes';
import { declaredRoutes, functionFiles } from './serverless-routes.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const declared = declaredRoutes(root);
const declaredKeys = new Set(declared.map((r) => `${r.method} ${r.path}`));
const doc = buildOpenApiDocument();
const documented = new Set(
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)),
);

describe('serverless.yml routes and the OpenAPI document', () => {
  it('reads every functions.yml of serverless.yml', () => {
    expect(functionFiles(root)).toEqual(expect.arrayContaining(['functions/system/functions.yml', 'functions/sites/functions.yml', 'functions/votes/functions.yml']));
    expect(declaredKeys).toContain('POST /api/site/{siteId}/vote');
    expect(declaredKeys).toContain('GET /api/openapi.json');
    expect(declaredKeys.size).toBe(declared.length);
  });

  it('documents every route of serverless.yml', () => {
    expect([...declaredKeys].filter((k) => !documented.has(k))).toEqual([]);
  });

  it('documents no route that serverless.yml lacks', () => {
    expect([...documented].filter((k) => !declaredKeys.has(k))).toEqual([]);
  });

  it('gives every tag at least one route (the docs page has a section per tag)', () => {
    const used = new Set(ROUTES.map((r) => r.tag));
    expect(Object.keys(TAGS).filter((tag) => !used.has(tag as keyof typeof TAGS))).toEqual([]);
  });
});
