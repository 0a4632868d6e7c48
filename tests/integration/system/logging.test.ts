/**
 * Every log line of a request carries the Lambda request id, and LOG_LEVEL is what
 * decides what is written. On Lambda the request id is put on each line by the runtime (LogFormat JSON,
 * serverless.yml `provider.logs.lambda`; the deploy template is checked in tests/e2e/package.test.ts),
 * which only sees what goes through `console`. So these tests run the handlers as on Lambda
 * (AWS_LAMBDA_LOG_FORMAT=JSON, set before anything is imported, as the runtime sets it) under a
 * stand-in of the runtime's JSON console, and also read stdout and stderr: a line that went around
 * the console would come out without the request id and fail the test.
 */
import { format } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'info';
  process.env.AWS_LAMBDA_LOG_FORMAT = 'JSON';
});

import { buildEvent } from '../../../scripts/lambda-call.ts';
import { createSite } from '#tests/support/fixtures';
import { handler as getSite } from '../../../functions/sites/get.ts';
import { handler as endProjects } from '../../../functions/jobs/end-projects.ts';

/** Where the runtime keeps the current invocation's id (aws-lambda-nodejs-runtime-interface-client). */
const REQUEST_ID = Symbol.for('aws.lambda.runtime.requestId');
const runtime = globalThis as unknown as Record<symbol, string | undefined>;

interface Line {
  level?: string;
  requestId?: string;
  message?: unknown;
}

/**
 * The lines written while `fn` runs as the invocation `requestId`: console calls as the runtime's JSON
 * console writes them (one argument is the `message` as is, more are formatted into a string), and
 * any JSON line written straight to stdout or stderr as it is.
 */
async function logLines(requestId: string, fn: () => Promise<unknown>): Promise<Line[]> {
  const lines: Line[] = [];
  runtime[REQUEST_ID] = requestId;
  for (const method of ['debug', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...params: unknown[]) => {
      const message = params.length === 1 ? params[0] : format(...params);
      lines.push(JSON.parse(JSON.stringify({ timestamp: new Date().toISOString(), level: method.toUpperCase(), requestId: runtime[REQUEST_ID], message })) as Line);
    });
  }
  const direct = (chunk: string | Uint8Array) => {
    for (const text of String(chunk).split('\n')) if (text.startsWith('{')) lines.push(JSON.parse(text) as Line);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(direct);
  vi.spyOn(process.stderr, 'write').mockImplementation(direct);
  try {
    await fn();
  } finally {
    vi.restoreAllMocks();
    runtime[REQUEST_ID] = undefined;
  }
  return lines;
}

const said = (line: Line) => (line.message as { message?: string } | undefined)?.message;

afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  delete process.env.AWS_LAMBDA_LOG_FORMAT;
});

describe('logs', () => {
  it('every line of a request carries its request id, a 404 and a 500 alike', async () => {
    const site = await createSite();
    for (const siteId of [site.id, 999_999_999]) {
      const { event, context } = buildEvent({ params: { siteId }, path: `/api/site/${siteId}` });
      const lines = await logLines(context.awsRequestId, () => getSite(event, context));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatchObject({ requestId: context.awsRequestId });
      expect(lines.find((l) => said(l) === 'request')).toMatchObject({ level: 'INFO', message: { route: event.routeKey } });
    }
  });

  it('a scheduled job run logs with its own request id', async () => {
    const { context } = buildEvent({});
    const lines = await logLines(context.awsRequestId, () => (endProjects as (e: unknown, c: unknown) => Promise<unknown>)({ time: new Date().toISOString() }, context));
    expect(lines.some((l) => said(l) === 'job run')).toBe(true);
    for (const line of lines) expect(line).toMatchObject({ requestId: context.awsRequestId });
  });
});
