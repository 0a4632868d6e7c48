/**
 * A new idea by a site user: its id, reserved beside the request's first read (lib/store/db/prefetch.ts
 * `newId`), one round trip less. Only for a body that can be an idea (an object with a string
 * `title`; the rest is checked against the site's rules later), so a malformed one costs no id.
 * Service tokens and anonymous callers reserve nothing. Apart from lib/ideas/read-plans.ts so the
 * create function does not bundle the read plans' query schemas.
 */
import type { ReadPlan } from '#lib/store/db/prefetch';
import { reserveIdAhead } from '#lib/store/db/counters';

export function ideaCreateReads({ userId, body }: { userId: number | undefined; body: Record<string, unknown> | undefined }): ReadPlan | undefined {
  if (userId === undefined) return undefined;
  if (typeof body?.['title'] !== 'string') return undefined;
  return { keys: [], consistent: false, newId: reserveIdAhead('idea') };
}
