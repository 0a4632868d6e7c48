/** `GET /api/health`: 200 `{"status":"ok"}` when DynamoDB answers, else 503 (lib/system/health.ts). */
import { apiHandler } from '#lib/http/handler';
import { health as healthRoute } from '#lib/routes/system/health';
import { ok } from '#lib/http/response';
import { health } from '#lib/system/health';

export const handler = apiHandler(healthRoute, async () => ok(await health(), { 'cache-control': 'no-store' }));
