/**
 * A module resolve hook for the handler host's threads (registered by ./handler-host-worker.cjs):
 * gives each function instance its own copy of the project's modules. A handler is imported as
 * `<file>?lambda-instance=<function>`; every project module it imports, directly or not, is resolved
 * with the same query, so it is a separate module record with its own top-level state (the DynamoDB
 * client, caches), as in a Lambda execution environment of that function. Dependencies under
 * node_modules stay shared: they hold no state of ours, and loading them once per thread keeps a
 * cold start to the function's own modules.
 */
const PARAM = 'lambda-instance';
let projectRoot = '';

export function initialize(data) {
  projectRoot = data.projectRoot;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const instance = context.parentURL?.includes(`${PARAM}=`) ? new URL(context.parentURL).searchParams.get(PARAM) : null;
  if (!instance || !resolved.url.startsWith(projectRoot) || resolved.url.includes('/node_modules/')) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set(PARAM, instance);
  return { ...resolved, url: url.href };
}
