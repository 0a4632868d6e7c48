/**
 * What the code emits for an operator (lib/observability): each answer's 4xx/5xx by route, a vote
 * round accepted or refused by reason, logins, and a job run's units done and failed, which also fails
 * the run (the alarm reads JobUnitsFailed by the service dimension alone). Read from the EMF lines
 * Powertools writes to stdout, as CloudWatch would.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

interface Emf {
  _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }> };
  [field: string]: unknown;
}

let lines: string[] = [];
beforeAll(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_METRICS_NAMESPACE = 'ParticipationApi';
  process.env.POWERTOOLS_SERVICE_NAME = 'participation-api-prod';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  lines = [];
});

/** Every (metric, value, dimension names) the EMF lines hold. */
function emitted(): Array<{ name: string; value: unknown; dimensions: string[]; fields: Record<string, unknown> }> {
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{') && l.includes('CloudWatchMetrics'))
    .map((l) => JSON.parse(l) as Emf)
    .flatMap((emf) => emf._aws.CloudWatchMetrics.flatMap((d) => d.Metrics.map((m) => ({ name: m.Name, value: emf[m.Name], dimensions: d.Dimensions.flat().sort(), fields: emf }))));
}

// The first import of the middleware takes seconds on a loaded machine (the runner's budget allows for it).
describe('metrics', () => {
  it('a refused vote round: 4xx by route, refused by service and by reason', async () => {
    const { countResponse, metrics } = await import('#lib/observability/metrics');
    countResponse('voteCast', 403, 'Forbidden');
    metrics.publishStoredMetrics();
    const out = emitted();
    expect(out).toContainEqual(expect.objectContaining({ name: 'VoteRoundsRefused', value: 1, dimensions: ['service'] }));
    expect(out).toContainEqual(expect.objectContaining({ name: 'VoteRoundsRefused', dimensions: ['reason', 'service'], fields: expect.objectContaining({ reason: 'Forbidden' }) }));
    expect(out).toContainEqual(expect.objectContaining({ name: 'Responses4xx', dimensions: ['route', 'service'], fields: expect.objectContaining({ route: 'voteCast' }) }));
    expect(out.every((m) => m.fields.service === 'participation-api-prod')).toBe(true);
  });

  it('an accepted round and a login; a 5xx is counted by route and is no refusal', async () => {
    const { countResponse, metrics } = await import('#lib/observability/metrics');
    countResponse('voteCast', 200, undefined);
    countResponse('oauthDigestLogin', 302, undefined);
    countResponse('ideaCreate', 503, 'ServiceUnavailable');
    metrics.publishStoredMetrics();
    const names = emitted().map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['VoteRoundsAccepted', 'Logins', 'Responses5xx']));
    expect(names).not.toContain('VoteRoundsRefused');
  });

  it('a job run with a failed unit emits JobUnitsFailed by service (what the alarm reads) and fails the invocation', async () => {
    const { scheduledJob, JobUnitsFailed } = await import('#lib/jobs/lambda');
    const report = { job: 'anonymize-ended' as const, now: new Date().toISOString(), units: 3, more: false, sites: [{ siteId: 1, done: ['a', 'b', 'c'], failed: ['user 9: the auth server did not answer'], nextDueAt: null }] };
    const handler = scheduledJob('anonymize-ended', async () => report);
    const context = { getRemainingTimeInMillis: () => 200_000, awsRequestId: 'r' } as never;
    await expect(handler({ time: report.now }, context)).rejects.toBeInstanceOf(JobUnitsFailed);
    const out = emitted();
    expect(out).toContainEqual(expect.objectContaining({ name: 'JobUnitsFailed', value: 1, dimensions: ['service'] }));
    expect(out).toContainEqual(expect.objectContaining({ name: 'JobUnitsDone', value: 3, dimensions: ['service'] }));
    expect(out).toContainEqual(expect.objectContaining({ name: 'JobUnitsFailed', dimensions: ['job', 'service'] }));
  });

  it('the checkpoint lag is a gauge by service, published even when 0 (its alarm treats a missing run as breaching)', async () => {
    const { gauge, metrics } = await import('#lib/observability/metrics');
    gauge('VoteCheckpointLagSeconds', 0);
    metrics.publishStoredMetrics();
    expect(emitted()).toContainEqual(expect.objectContaining({ name: 'VoteCheckpointLagSeconds', value: 0, dimensions: ['service'] }));
  });

  it('a job run passes its deadline to the run and succeeds when nothing failed', async () => {
    const { scheduledJob } = await import('#lib/jobs/lambda');
    let seen: number | undefined;
    const handler = scheduledJob('close-ideas', async (options) => {
      seen = options.remainingMs?.();
      return { job: 'close-ideas', now: options.now.toISOString(), units: 0, more: false, sites: [] };
    });
    await expect(handler({}, { getRemainingTimeInMillis: () => 123_456, awsRequestId: 'r' } as never)).resolves.toMatchObject({ units: 0 });
    expect(seen).toBe(123_456);
  });
});
