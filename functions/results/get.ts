import { apiHandler } from '#lib/http/handler';
import type { ApiResult } from '#lib/http/response';
import { resultsGet } from '#lib/routes/results/get';
import { readResults, resultsPath, resultsReads } from '#lib/results/service';

/** What a CDN may keep of public results (docs/results.md "Results snapshots"). */
const PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=300';

/** The snapshot's head joins the site and the caller in the request's one first read. */
export const handler = apiHandler({ ...resultsGet, prefetch: resultsReads }, async ({ site, caller, headers }): Promise<ApiResult> => {
  const answer = await readResults(site, caller, headers['if-none-match']);
  if (answer.kind === 'accepted') {
    return { statusCode: 202, body: { status: 202, message: 'The results are being computed' }, headers: { location: resultsPath(site.id), 'retry-after': String(answer.retryAfterSeconds), 'cache-control': 'no-store' } };
  }
  const cache = { etag: answer.etag, 'cache-control': answer.shared ? PUBLIC_CACHE : 'private, no-store' };
  if (answer.kind === 'not-modified') return { statusCode: 304, headers: cache };
  return { statusCode: 200, body: answer.body, headers: cache };
});
