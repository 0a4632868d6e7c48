/**
 * `GET /api/site/:SITE_ID/results` and `POST .../results/compute` (CONTRACT "Decided details, results
 * and exports"; docs/results.md "Results snapshots"). A GET answers the stored snapshot: its head comes
 * with the request's first read, a chunked body with one BatchGet more, so at most two requests; an
 * `If-None-Match` naming its ETag is a 304. Only a moderator's (or a service token's) GET may compute:
 * when the snapshot is stale it computes under the site's lease for up to REQUEST_COMPUTE_MS, and
 * answers 202 (the background job carries on) when that is not enough. Stale means that something the
 * snapshot does not hold was written since (an entry past the ones it counted, a site write), not merely
 * that votes are recent; and a snapshot computed less than RECOMPUTE_INTERVAL_SECONDS ago is served as it
 * is, so moderators' reads compute at most once per that interval per site, however busy the vote.
 * Nobody else's request computes or writes anything.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { hasRole } from '#lib/auth/roles';
import { computeSiteResults, type ResultsSnapshotBody } from '#lib/results/compute';
import { unpackSnapshot } from '#lib/results/snapshot';
import { matchesEtag } from '#lib/crypto/etag';
import { projectHasEnded } from '#lib/sites/project';
import type { Site } from '#lib/sites/site';
import { makeJobDueBy } from '#lib/store/jobs/jobs';
import { getResultsHead, getResultsState, readResultsBody, type ResultsHead } from '#lib/store/results/snapshots';
import { countLogEntriesAfter, newestLogEntryAt } from '#lib/store/vote-log/log';

/** Real time a moderator's GET may spend computing (API Gateway answers 504 at 29 s). */
const REQUEST_COMPUTE_MS = 20_000;
/** Moderators' reads compute a site's results at most once per this many seconds: a newer snapshot is served as it is. */
export const RECOMPUTE_INTERVAL_SECONDS = 30;
/** What a 202 asks the client to wait before it looks again. */
const RETRY_AFTER_SECONDS = 30;

type ResultsAnswer =
  | { kind: 'ok'; body: ResultsSnapshotBody; etag: string; shared: boolean }
  | { kind: 'not-modified'; etag: string; shared: boolean }
  | { kind: 'accepted'; retryAfterSeconds: number };

/** The results path, for a 202's `Location`. */
export const resultsPath = (siteId: number): string => `/api/site/${siteId}/results`;

/** The snapshot's head, for the request's first read (with the site and the caller). */
export const resultsReads = ({ siteId }: { siteId: number }) => getResultsHead.plan(siteId);

/** Who may compute on request: moderators and above on this site, and service tokens. */
const mayCompute = (caller: Caller): boolean => caller.kind === 'service' || (caller.kind === 'user' && hasRole(caller.role, 'moderator'));

/**
 * Whether something the snapshot does not hold was written since it was computed: a ballot change (a log
 * entry past those it counted as committed when it read the ballots) or the site's config. One COUNT
 * Query that reads at most the entries of the snapshot's settle window, plus one. (The checkpoint job's
 * `staleSince` says the same as the log, later; it decides only for a snapshot without that count.)
 */
async function isStale(site: Site, head: ResultsHead): Promise<boolean> {
  if (site.updatedAt > head.computedAt) return true;
  if (head.coveredUntil === null) return false;
  if (head.settling !== undefined) return (await countLogEntriesAfter(site.id, head.coveredUntil, head.settling)) > head.settling;
  const [newest, state] = await Promise.all([newestLogEntryAt(site.id), getResultsState(site.id)]);
  return (newest !== undefined && newest > head.coveredUntil) || state?.staleSince !== undefined;
}

/** Whether the snapshot is recent enough that a moderator's read serves it without looking further. */
const computedWithinInterval = (head: ResultsHead, now: Date): boolean => Date.parse(head.computedAt) > now.getTime() - RECOMPUTE_INTERVAL_SECONDS * 1000;

export async function readResults(site: Site, caller: Caller, ifNoneMatch: string | undefined): Promise<ResultsAnswer> {
  access.results.read(caller, site.config);
  // Shared caches may keep what everyone may read: public results, read without a token. (A request
  // with credentials of any kind, a site's Basic Auth included, is made private by the caching step.)
  const shared = caller.kind === 'none' && (site.config.votes.isViewable || projectHasEnded(site.config));
  let head = await getResultsHead(site.id);
  const now = new Date();
  if (mayCompute(caller) && (!head || (!computedWithinInterval(head, now) && (await isStale(site, head))))) {
    const outcome = await computeSiteResults(site, {
      deadline: new Date(now.getTime() + REQUEST_COMPUTE_MS),
      // Another moderator's read may have computed while this one waited for the lease: that one stands.
      unlessComputedAfter: new Date(now.getTime() - RECOMPUTE_INTERVAL_SECONDS * 1000),
    });
    if (outcome !== 'done') {
      await makeJobDueBy(site.id, 'results', new Date().toISOString());
      return { kind: 'accepted', retryAfterSeconds: RETRY_AFTER_SECONDS };
    }
    head = await getResultsHead(site.id);
  }
  if (!head) return { kind: 'accepted', retryAfterSeconds: RETRY_AFTER_SECONDS };
  if (matchesEtag(ifNoneMatch, head.etag)) return { kind: 'not-modified', etag: head.etag, shared };
  let chunks = await readResultsBody(head);
  if (!chunks) {
    // Replaced between the two reads, and its chunks already gone: the new head has its own.
    head = (await getResultsHead(site.id))!;
    chunks = await readResultsBody(head);
    if (!chunks) throw new Error(`results snapshot of site ${site.id}: chunks missing`);
  }
  return { kind: 'ok', body: unpackSnapshot(chunks) as ResultsSnapshotBody, etag: head.etag, shared };
}

/** `POST .../results/compute`: moderators and above; the background job computes (202). */
export async function requestResultsComputation(site: Site, caller: Caller): Promise<{ retryAfterSeconds: number }> {
  access.results.compute(caller);
  await makeJobDueBy(site.id, 'results', new Date().toISOString());
  return { retryAfterSeconds: RETRY_AFTER_SECONDS };
}
