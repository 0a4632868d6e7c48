import { apiHandler } from '#lib/http/handler';
import { resultsCompute } from '#lib/routes/results/compute';
import { requestResultsComputation, resultsPath } from '#lib/results/service';

export const handler = apiHandler(resultsCompute, async ({ site, caller }) => {
  const { retryAfterSeconds } = await requestResultsComputation(site, caller);
  return { statusCode: 202, body: { status: 202, message: 'The results will be computed' }, headers: { location: resultsPath(site.id), 'retry-after': String(retryAfterSeconds) } };
});
