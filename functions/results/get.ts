import { apiHandler } from '#lib/http/handler';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, PUBLIC_VARY } from '#lib/http/caching';
import type { ApiResult } from '#lib/http/response';
import { resultsGet } from '#lib/routes/results/get';
import { readResults, resultsPath, resultsReads } from '#lib/results/service';

/** The snapshot's head joins the site and the caller in the request's one first read. */
export const handler = apiHandler({ ...resultsGet, prefetch: resultsReads }, async ({ site, caller, headers }): Promise<ApiResult> => {
  const answer = await readResults(site, caller, headers['if-none-match']);
  if (answer.kind === 'accepted') {
    return { statusCode: 202, body: { status: 202, message: 'The results are being computed' }, headers: { location: resultsPath(site.id), 'retry-after': String(answer.retryAfterSeconds), 'cache-control': 'no-store' } };
  }
  const cache: Record<string, string> = answer.shared
    ? { etag: answer.etag, 'cache-control': PUBLIC_CACHE_CONTROL, vary: PUBLIC_VARY.join(', ') }
    : { etag: answer.etag, 'cache-control': PRIVATE_CACHE_CONTROL };
  if (answer.kind === 'not-modified') return { statusCode: 304, headers: cache };
  return { statusCode: 200, body: answer.body, headers: cache };
});
