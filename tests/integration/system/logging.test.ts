/**
 * Issue 15 item 4: every log line of a request carries the Lambda request id, and LOG_LEVEL is what
 * decides what is written. The logger is built at import from lib/config/env.ts, so the level is set
 * before anything is imported (vi.hoisted), as a deployed function's environment would be.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'info';
});

import { buildEvent } from '../../../scripts/lambda-call.ts';
import { createSite } from '#tests/support/fixtures';
import { handler as getSite } from '../../../functions/sites/get.ts';
import { handler as endProjects } from '../../../functions/jobs/end-projects.ts';

/** The JSON lines the logger writes to stdout while `fn` runs. */
async function logLines(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => vi.restoreAllMocks());

describe('logs', () => {
  it('every line of a request carries its request id, a 404 and a 500 alike', async () => {
    const site = await createSite();
    for (const siteId of [site.id, 999_999_999]) {
      const { event, context } = buildEvent({ params: { siteId }, path: `/api/site/${siteId}` });
      const lines = await logLines(() => getSite(event, context));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatchObject({ function_request_id: context.awsRequestId });
      expect(lines.some((l) => l.message === 'request')).toBe(true);
    }
  });

  it('a scheduled job run logs with its own request id', async () => {
    const { context } = buildEvent({});
    const lines = await logLines(() => (endProjects as (e: unknown, c: unknown) => Promise<unknown>)({ time: new Date().toISOString() }, context));
    expect(lines.some((l) => l.message === 'job run')).toBe(true);
    for (const line of lines) expect(line).toMatchObject({ function_request_id: context.awsRequestId });
  });
});
