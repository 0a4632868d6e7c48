import type { AccessClass } from '#lib/config/access-classes';

/**
 * The HTTP API `$default` route (functions/system/not-found.ts): no declared route, so no document
 * entry, but a function all the same. It reads the site a path names (one GetItem) for the CORS
 * origins of a preflight and for the site's Basic Auth; it reads no token and so no secret.
 */
export const catchAll = {
  functionName: 'notFound',
  handler: 'functions/system/not-found',
  dataAccess: 'probe',
} as const satisfies { functionName: string; handler: string; dataAccess: AccessClass };
