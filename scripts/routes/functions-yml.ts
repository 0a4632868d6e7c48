/**
 * The serverless function list, written from the route declarations (lib/routes): one
 * functions/<resource>/functions.yml per resource, which serverless.yml includes. Method, path,
 * handler and timeout are declared once, in lib/routes/<resource>/<action>.ts; these files are only
 * their YAML form. `npx tsx scripts/routes/write-functions-yml.ts` rewrites them, and
 * tests/unit/openapi/routes.test.ts fails while a committed file differs from what this writes.
 */
import { ROUTE_GROUPS } from '#lib/openapi/routes';
import type { Route } from '#lib/routes/route';

/** Functions that serve no declared route, by resource: the HTTP API `$default` catch-all. */
const UNROUTED: Record<string, string> = {
  system:
    '# Unknown paths and methods, and CORS preflights, land here (HTTP API `$default` route).\n' +
    'notFound:\n  handler: functions/system/not-found.handler\n  events:\n    - httpApi: \'*\'\n',
};

interface LambdaFunction {
  name: string;
  handler: string;
  timeout: number | undefined;
  routes: Route[];
}

/** The routes of one resource grouped into their functions, in declaration order. */
function functionsOf(resource: string, routes: readonly Route[]): LambdaFunction[] {
  const byName = new Map<string, LambdaFunction>();
  for (const route of routes) {
    if (!route.handler.startsWith(`functions/${resource}/`)) throw new Error(`${route.operationId}: handler ${route.handler} is outside functions/${resource}/`);
    const name = route.functionName ?? route.operationId;
    const fn = byName.get(name);
    if (!fn) {
      byName.set(name, { name, handler: route.handler, timeout: route.timeout, routes: [route] });
      continue;
    }
    if (fn.handler !== route.handler || (route.timeout !== undefined && route.timeout !== fn.timeout)) {
      throw new Error(`${route.operationId}: function ${name} is declared with another handler or timeout`);
    }
    fn.routes.push(route);
  }
  return [...byName.values()];
}

export function renderFunctionsYml(resource: string, routes: readonly Route[]): string {
  const lines = [
    `# Written from lib/routes/${resource} by scripts/routes/write-functions-yml.ts: edit the route declarations,`,
    '# not this file (tests/unit/openapi/routes.test.ts fails while the two differ).',
  ];
  for (const fn of functionsOf(resource, routes)) {
    lines.push(`${fn.name}:`, `  handler: ${fn.handler}.handler`);
    if (fn.timeout !== undefined) lines.push(`  timeout: ${fn.timeout}`);
    lines.push('  events:');
    for (const route of fn.routes) lines.push('    - httpApi:', `        method: ${route.method}`, `        path: ${route.path}`);
  }
  return `${lines.join('\n')}\n${UNROUTED[resource] ?? ''}`;
}

/** Every generated file: path from the project root -> content. */
export function functionsYmlFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const names = new Set<string>();
  for (const [resource, routes] of Object.entries(ROUTE_GROUPS)) {
    for (const fn of functionsOf(resource, routes)) {
      if (names.has(fn.name)) throw new Error(`Function ${fn.name} is declared by two resources`);
      names.add(fn.name);
    }
    files.set(`functions/${resource}/functions.yml`, renderFunctionsYml(resource, routes));
  }
  return files;
}
