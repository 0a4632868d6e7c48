/**
 * A new idea by a site user: its id, reserved beside the request's first read (lib/store/prefetch.ts
 * `newId`), one round trip less. Only for a body that can be an idea (an object with a string
 * `title`; the rest is checked against the site's rules later), so a malformed one costs no id.
 * Service tokens and anonymous callers reserve nothing. Apart from lib/ideas/read-plans.ts so the
 * create function does not bundle the read plans' query schemas.
 */
import type { PrefetchRequest } from '#lib/http/handler';
import type { ReadPlan } from '#lib/store/prefetch';
import { reserveIdAhead } from '#lib/store/counters';
import { isPlainObject } from '#lib/extra-data/plain-object';

export function ideaCreateReads(request: PrefetchRequest): ReadPlan | undefined {
  if (request.userId === undefined) return undefined;
  if (!isPlainObject(request.body) || typeof request.body['title'] !== 'string') return undefined;
  return { keys: [], consistent: false, newId: reserveIdAhead('idea') };
}
