/**
 * `lastActivityAt` (lifecycle: anonymize-inactive counts from it): a login sets it with the update
 * every login makes (lib/users/login.ts); a write on the site refreshes it here, at most once a day
 * per user. The caller's user record is read on every authenticated request anyway
 * (lib/auth/caller.ts), so comparing the stored day costs nothing, and only the first write of a day
 * adds one conditional UpdateItem. Users without the attribute (stored before it existed) get it at
 * their next login.
 */
import type { Caller } from '#lib/auth/caller';
import { dayOf } from '#lib/sites/dates';
import { logger } from '#lib/log/logger';
import { touchUserActivity } from '#lib/store/users/users';

export async function recordWriteActivity(caller: Caller, siteId: number | undefined, now: Date = new Date()): Promise<void> {
  if (caller.kind !== 'user' || caller.siteId !== siteId) return;
  const seen = caller.user.lastActivityAt;
  const at = now.toISOString();
  if (typeof seen !== 'string' || dayOf(seen) >= dayOf(at)) return;
  try {
    await touchUserActivity(caller.siteId, caller.userId, at, seen);
  } catch (err) {
    // The write the caller asked for has succeeded; a missed activity stamp only delays a warning.
    logger.warn('could not record user activity', { siteId: caller.siteId, userId: caller.userId, error: (err as Error).message });
  }
}
