/**
 * `GET /api/site/:SITE_ID/results` and `POST .../results/compute` (CONTRACT "Decided details, results
 * and exports"; docs/results.md "Results snapshots"). A GET answers the stored snapshot: its head comes
 * with the request's first read, a chunked body with one BatchGet more, so at most two requests; an
 * `If-None-Match` naming its ETag is a 304. Only a moderator's (or a service token's) GET may compute:
 * when the snapshot is stale it computes under the site's lease for up to REQUEST_COMPUTE_MS, and
 * answers 202 (the background job carries on) when that is not enough. Nobody else's request computes
 * or writes anything.
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
import { newestLogEntryAt } from '#lib/store/vote-log/log';

/** Real time a moderator's GET may spend computing (API Gateway answers 504 at 29 s). */
const REQUEST_COMPUTE_MS = 20_000;
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

/** Whether ballots (a log entry), the site's config or its ideas' state changed since the snapshot was computed. */
async function isStale(site: Site, head: ResultsHead): Promise<boolean> {
  const [newest, state] = await Promise.all([newestLogEntryAt(site.id), getResultsState(site.id)]);
  if (newest !== undefined && head.coveredUntil !== null && newest > head.coveredUntil) return true;
  if (state?.staleSince !== undefined) return true;
  return site.updatedAt > head.computedAt;
}

export async function readResults(site: Site, caller: Caller, ifNoneMatch: string | undefined): Promise<ResultsAnswer> {
  access.results.read(caller, site.config);
  // Shared caches may keep what everyone may read: public results, read without a token. (A request
  // with credentials of any kind, a site's Basic Auth included, is made private by the caching step.)
  const shared = caller.kind === 'none' && (site.config.votes.isViewable || projectHasEnded(site.config));
  let head = await getResultsHead(site.id);
  if (mayCompute(caller) && (!head || (await isStale(site, head)))) {
    const outcome = await computeSiteResults(site, { deadline: new Date(Date.now() + REQUEST_COMPUTE_MS) });
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
