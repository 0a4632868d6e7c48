/**
 * A job anonymizes a user exactly as `do-anonymize` does (lib/privacy/anonymize.ts: votes removed while
 * voting is open with the tallies kept exact, signups deleted, the auth server told, the user item
 * replaced), acting as the service itself. The anonymized user leaves the activity index, so a rerun
 * does not find them again; a failure (say the auth server did not answer) leaves them there for the
 * next run.
 */
import type { Caller } from '#lib/auth/caller';
import { isApiError } from '#lib/errors';
import { logger } from '#lib/log/logger';
import type { SiteReport } from '#lib/jobs/run';
import type { Site } from '#lib/sites/site';
import { doAnonymize } from '#lib/privacy/anonymize';

/** The scheduled jobs act with the rights of a service token, on behalf of nobody. */
const SYSTEM: Caller = { kind: 'service', role: 'admin', userId: undefined };

export async function anonymizeByJob(site: Site, userId: number, now: Date, report: SiteReport, reason: string): Promise<boolean> {
  try {
    await doAnonymize(site, SYSTEM, userId, 'site', { now });
    report.done.push(`user ${userId} anonymized (${reason})`);
    return true;
  } catch (err) {
    // 404: deleted meanwhile (its index entry went with it). Anything else is retried by the next run.
    if (isApiError(err) && err.status === 404) return true;
    logger.warn('job anonymization failed', { siteId: site.id, userId, error: (err as Error).message });
    report.failed.push(`user ${userId}: ${isApiError(err) ? err.message : 'internal error'}`);
    return false;
  }
}
