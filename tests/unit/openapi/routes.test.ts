/**
 * One declaration per route (lib/routes, DESIGN habit 15) is what serverless.yml deploys and what the
 * OpenAPI document shows: every functions.yml of a resource is exactly what the declarations write,
 * serverless.yml (read back independently, line by line) has exactly the declared routes with their
 * handler modules, every handler module serves declared routes, and every tag has a route.
 * tests/unit/openapi/route-handlers.test.ts checks that each handler validates with its declaration.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '#lib/openapi/document';
import { ROUTE_GROUPS, ROUTES, TAGS } from '#lib/openapi/routes';
import { functionsYmlFiles, renderFunctionsYml } from '../../../scripts/routes/functions-yml.ts';
import { declaredRoutes, functionFiles } from './serverless-routes.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('the serverless function list', () => {
  it('is, file by file, what the route declarations write (npx tsx scripts/routes/write-functions-yml.ts)', () => {
    const files = functionsYmlFiles();
    expect([...files.keys()].sort()).toEqual(
      [...Object.keys(ROUTE_GROUPS).map((resource) => `functions/${resource}/functions.yml`), 'functions/openstad/functions.yml', 'functions/access-roles.yml'].sort(),
    );
    for (const [file, content] of files) expect(readFileSync(join(root, file), 'utf8'), file).toBe(content);
  });

  it('is all included by serverless.yml, which deploys exactly the declared routes, each by its declared function and handler', () => {
    expect(functionFiles(root)).toEqual(expect.arrayContaining([...functionsYmlFiles().keys()].filter((f) => f !== 'functions/access-roles.yml')));
    // The OpenStad surface is one function for its whole prefix, outside the route declarations (lib/openstad/function.ts).
    const surface = declaredRoutes(root).filter((r) => r.functionName === 'openstad');
    expect(surface).toEqual([{ functionName: 'openstad', handler: 'functions/openstad/handler', method: '*', path: '/openstad/{proxy+}' }]);
    const deployed = declaredRoutes(root)
      .filter((r) => r.functionName !== 'openstad')
      .map((r) => `${key(r)} -> ${r.functionName} ${r.handler}`);
    const declared = ROUTES.map((r) => `${key(r)} -> ${r.functionName ?? r.operationId} ${r.handler}`);
    expect(deployed.sort()).toEqual(declared.sort());
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('fails the check when a declaration changes and the file does not', () => {
    const [resource, routes] = Object.entries(ROUTE_GROUPS)[0]!;
    const moved = routes.map((r, i) => (i === 0 ? { ...r, path: `${r.path}-moved` } : r));
    expect(renderFunctionsYml(resource, moved)).not.toBe(readFileSync(join(root, `functions/${resource}/functions.yml`), 'utf8'));
    const shared = routes.map((r, i) => (i === 1 ? { ...r, functionName: routes[0]!.operationId } : r));
    expect(() => renderFunctionsYml(resource, shared)).toThrow(/another handler/);
  });
});

describe('handler modules', () => {
  const handlerFiles = readdirSync(join(root, 'functions'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `functions/${f.slice(0, -3)}`);
  // Not routes: the scheduled jobs, the `$default` catch-all and the OpenStad surface (one function for its prefix).
  const unrouted = (f: string) => f.startsWith('functions/jobs/') || f === 'functions/system/not-found' || f.startsWith('functions/openstad/');

  it('serve declared routes, and every declared handler exists', () => {
    const declared = new Set(ROUTES.map((r) => r.handler));
    expect(handlerFiles.filter((f) => !unrouted(f) && !declared.has(f))).toEqual([]);
    expect([...declared].filter((h) => !existsSync(join(root, `${h}.ts`)))).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument();
  const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

  it('has one operation per declared route', () => {
    expect(documented.sort()).toEqual(ROUTES.map(key).sort());
  });

  it('gives every tag at least one route (the docs page has a section per tag)', () => {
    const used = new Set(ROUTES.map((r) => r.tag));
    expect(Object.keys(TAGS).filter((tag) => !used.has(tag as keyof typeof TAGS))).toEqual([]);
  });
});
