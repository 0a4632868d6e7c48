/**
 * `GET /api/health`, for load balancers, uptime checks and `npm start`'s readiness probe: ok when the
 * table answers, a 503 with the CONTRACT error body when it does not.
 */
import { serviceUnavailable } from '#lib/errors';
import { tableReachable } from '#lib/store/db/health';

export async function health(): Promise<{ status: 'ok' }> {
  if (!(await tableReachable())) throw serviceUnavailable('The database is not reachable');
  return { status: 'ok' };
}
