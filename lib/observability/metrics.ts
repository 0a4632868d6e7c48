/**
 * The numbers an operator and a city watch, as CloudWatch metrics in the embedded metric format
 * (Powertools Metrics, DESIGN habit 20): written to the function's log, so emitting one costs no
 * request. Namespace and service come from serverless.yml (POWERTOOLS_METRICS_NAMESPACE,
 * POWERTOOLS_SERVICE_NAME); the alarms and the dashboard read them by those names (resources/
 * operations.yml, scripts/sls/operations.cjs).
 *
 * Each count is emitted with the service dimension alone (what alarms and the dashboard read) and,
 * where a breakdown helps, once more with one extra dimension (route, reason, job).
 *
 * Outside Lambda (npm start, the tests) nothing is written unless POWERTOOLS_METRICS_DISABLED=false.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

// Read by Powertools when the instance is made; only off the Lambda runtime, and only when unset.
if (process.env.AWS_LAMBDA_FUNCTION_NAME === undefined) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'ParticipationApi',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'participation-api-local',
});

type CountName =
  | 'Responses4xx'
  | 'Responses5xx'
  | 'VoteRoundsAccepted'
  | 'VoteRoundsRefused'
  | 'Logins'
  | 'LoginsRefused'
  | 'JobUnitsDone'
  | 'JobUnitsFailed';

/** Adds `value` to a count: once by service, and once more by `by` when given. Published at the end of the invocation. */
export function count(name: CountName, value: number, by?: { dimension: string; value: string }): void {
  if (value <= 0) return;
  metrics.addMetric(name, MetricUnit.Count, value);
  if (!by) return;
  const single = metrics.singleMetric();
  single.addDimension(by.dimension, by.value);
  single.addMetric(name, MetricUnit.Count, value);
}

/** What a route's answer means beyond its status, for the routes a city watches. */
const OUTCOMES: Record<string, { accepted: CountName; refused: CountName }> = {
  voteCast: { accepted: 'VoteRoundsAccepted', refused: 'VoteRoundsRefused' },
  oauthDigestLogin: { accepted: 'Logins', refused: 'LoginsRefused' },
};

/** The counts of one HTTP answer: 4xx/5xx by route, and the route's outcome (a refusal by its CONTRACT error name). */
export function countResponse(route: string, status: number, errorName: string | undefined): void {
  if (status >= 500) count('Responses5xx', 1, { dimension: 'route', value: route });
  else if (status >= 400) count('Responses4xx', 1, { dimension: 'route', value: route });
  const outcome = OUTCOMES[route];
  if (!outcome || status >= 500) return;
  if (status < 400) count(outcome.accepted, 1);
  else count(outcome.refused, 1, { dimension: 'reason', value: errorName ?? String(status) });
}
