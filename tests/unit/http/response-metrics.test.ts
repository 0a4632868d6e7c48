/**
 * What the shared stack (lib/http/stack.ts) and the route wrapper (lib/http/handler.ts) give an
 * operator's alarms: every answer is counted by its route and by service, and the counts are published
 * in the same invocation, an error answer too. Read from the EMF lines written to stdout, as CloudWatch would.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

vi.hoisted(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_METRICS_NAMESPACE = 'ParticipationApi';
  process.env.POWERTOOLS_SERVICE_NAME = 'participation-api-test';
});

const { withHttpStack } = await import('#lib/http/stack');
const { apiHandler } = await import('#lib/http/handler');
const { forbidden } = await import('#lib/errors');

let written: string[] = [];
beforeAll(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  written = [];
});

/** The (metric name, route) pairs of the EMF lines written so far. */
function counted(): Array<{ name: string; route: unknown }> {
  return written
    .flatMap((c) => c.split('\n'))
    .filter((l) => l.startsWith('{') && l.includes('CloudWatchMetrics'))
    .map((l) => JSON.parse(l) as { _aws: { CloudWatchMetrics: Array<{ Metrics: Array<{ Name: string }> }> }; route?: unknown })
    .flatMap((emf) => emf._aws.CloudWatchMetrics.flatMap((d) => d.Metrics.map((m) => ({ name: m.Name, route: emf.route }))));
}

const event = (method: string) =>
  ({ version: '2.0', routeKey: `${method} /x`, rawPath: '/x', headers: {}, requestContext: { http: { method, path: '/x' }, requestId: 'r' } }) as unknown as APIGatewayProxyEventV2;
const context = { awsRequestId: 'r', functionName: 'unit', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;

describe('response counts', () => {
  it('an error answer is counted under the route and published before the invocation ends', async () => {
    const handler = withHttpStack(async () => {
      throw forbidden('No');
    }, { route: 'ideaCreate' });
    expect(((await handler(event('POST'), context)) as { statusCode: number }).statusCode).toBe(403);
    // By route (a single metric, written at once) and by service alone (what the alarms read: stored
    // through the invocation and published at its end, so it must be published here).
    expect(counted()).toContainEqual({ name: 'Responses4xx', route: 'ideaCreate' });
    expect(counted()).toContainEqual({ name: 'Responses4xx', route: undefined });
  });

  it("a route without a name is counted under its route key (the catch-all's)", async () => {
    const handler = withHttpStack(async () => ({ statusCode: 404, body: '{}' }));
    await handler(event('GET'), context);
    expect(counted()).toContainEqual({ name: 'Responses4xx', route: 'GET /x' });
  });

  it("an API route is counted under its declaration's operation id", async () => {
    const handler = apiHandler({ operationId: 'tagList', dataAccess: 'static' }, async () => {
      throw forbidden('No');
    });
    expect(((await handler(event('GET'), context)) as { statusCode: number }).statusCode).toBe(403);
    expect(counted()).toContainEqual({ name: 'Responses4xx', route: 'tagList' });
    expect(counted().map((c) => c.route)).not.toContain('GET /x');
  });

  it('an answer that counts nothing writes no metrics line', async () => {
    await withHttpStack(async () => ({ statusCode: 200, body: '{}' }), { route: 'siteGet' })(event('GET'), context);
    expect(counted()).toEqual([]);
  });
});
