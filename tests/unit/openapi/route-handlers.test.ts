/**
 * Each handler validates with its route's declaration: the params, query and body schemas and the
 * rate limit it gives apiHandler are the very objects the route declares (identity, not shape), and
 * so the very ones the OpenAPI document is built from. apiHandler is replaced by a recorder, so
 * importing a handler runs nothing but its module code.
 */
import { describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '#lib/openapi/routes';
import type { Route } from '#lib/routes/route';

vi.mock('#lib/http/handler', () => ({
  apiHandler: (spec: unknown) => Object.assign(async () => undefined, { spec }),
}));

type Spec = Pick<Route, 'params' | 'query' | 'body' | 'rateLimit'>;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const specOf = async (route: Route): Promise<Spec | undefined> => {
  const module = (await import(join(root, `${route.handler}.ts`))) as { handler: { spec?: Spec } };
  return module.handler.spec;
};

describe('each handler', () => {
  it.each(ROUTES.map((r) => [r.operationId, r] as const))('%s validates with its declaration', async (_id, route) => {
    const spec = await specOf(route);
    if (!spec) {
      // Only a route that reads no input may skip apiHandler (the document and its page), and the
      // page's files, whose one parameter is a name from the list its schema is built from
      // (schemas/docs.ts DOCS_ASSET_NAMES; anything else is a 404: tests/unit/openapi/docs-ui.test.ts).
      const params = route.operationId === 'docsAsset' ? undefined : route.params;
      expect([params, route.query, route.body, route.rateLimit]).toEqual([undefined, undefined, undefined, undefined]);
      return;
    }
    expect(spec.params, 'params').toBe(route.params);
    expect(spec.query, 'query').toBe(route.query);
    expect(spec.body, 'body').toBe(route.body);
    expect(spec.rateLimit, 'rateLimit').toBe(route.rateLimit);
  });
});
