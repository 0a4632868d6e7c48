/** Routes: The API's own description (OpenAPI 3.1 and a readable page of it) and the health check. The `$default` catch-all is no route: lib/routes/system/catch-all.ts. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { openapi } from '#lib/routes/system/openapi';
import { docs } from '#lib/routes/system/docs';
import { docsAsset } from '#lib/routes/system/docs-asset';
import { health } from '#lib/routes/system/health';

export const systemRoutes: Route[] = [openapi, docs, docsAsset, health];
