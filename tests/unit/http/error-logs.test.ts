/**
 * What the shared stack writes to the log (lib/http/stack.ts, lib/http/error-handler.ts): one request
 * line with method, route, status and time; the real error of a 500 and the message of an upstream
 * 5xx go to the log (never to the client); client errors are not logged as errors.
 */
import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'INFO';
});

const { withHttpStack } = await import('#lib/http/stack');
const { ApiError, badGateway, forbidden } = await import('#lib/errors');

async function logged(outcome: unknown, event: object = { headers: {}, routeKey: 'GET /x', requestContext: { http: { method: 'GET', path: '/x' } }, rawPath: '/x' }) {
  const written: string[] = [];
  // Off Lambda the logger writes warnings and errors to stderr and the rest to stdout: both are read.
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
  const handler = withHttpStack(async () => {
    if (typeof outcome === 'function') return (outcome as () => Promise<{ statusCode: number; body: string }>)();
    if (outcome instanceof Error) throw outcome;
    return { statusCode: 200, body: '{}' };
  });
  const res = (await handler(event as never, { awsRequestId: 'req-9', functionName: 'unit', getRemainingTimeInMillis: () => 1000 } as never)) as { statusCode: number; body: string };
  for (const spy of spies) spy.mockRestore();
  const lines = written.flatMap((c) => c.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: res.statusCode, body: res.body, lines };
}

describe('logs of the shared stack', () => {
  it('one request line: method, route, status and a duration', async () => {
    const { lines } = await logged('ok');
    const request = lines.find((l) => l.message === 'request');
    expect(request).toMatchObject({ level: 'INFO', method: 'GET', route: 'GET /x', status: 200, requestId: 'req-9' });
    expect(typeof request!.ms).toBe('number');
    expect(request!.ms as number).toBeGreaterThanOrEqual(0);
    expect(request!.ms as number).toBeLessThan(60_000);
  });

  it('a 500 logs the real error; an upstream 5xx logs its message; a 403 logs no error', async () => {
    const crash = await logged(new Error('disk on fire'));
    expect(crash.status).toBe(500);
    expect(crash.lines.find((l) => l.message === 'unhandled error')).toMatchObject({ level: 'ERROR', error: { message: 'disk on fire' } });
    expect(crash.lines.find((l) => l.message === 'request')).toMatchObject({ status: 500 });
    const upstream = await logged(badGateway('auth server down'));
    expect(upstream.status).toBe(502);
    expect(upstream.lines.find((l) => l.message === 'upstream failure')).toMatchObject({ level: 'ERROR', error: 'auth server down' });
    const refused = await logged(forbidden('No'));
    expect(refused.status).toBe(403);
    expect(refused.lines.filter((l) => l.level === 'ERROR')).toEqual([]);
  });

  it('the duration is the time from the request to its answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      const { lines } = await logged(async () => {
        vi.setSystemTime(1_000_250);
        return { statusCode: 200, body: '{}' };
      });
      expect(lines.find((l) => l.message === 'request')).toMatchObject({ status: 200, ms: 250 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('an event without API Gateway request context (a direct invocation) is answered and logged', async () => {
    for (const event of [{ headers: {} }, { headers: {}, requestContext: {} }]) {
      const { status, lines } = await logged('ok', event);
      expect(status, JSON.stringify(event)).toBe(200);
      expect(lines.find((l) => l.message === 'request')).toMatchObject({ status: 200, requestId: 'req-9' });
    }
  });

  it('a typed 500 is logged like any 5xx; the generic 500 tells the client only that something went wrong', async () => {
    const typed = await logged(new ApiError(500, 'InternalError', 'counter store inconsistent'));
    expect(typed.status).toBe(500);
    expect(typed.lines.find((l) => l.message === 'upstream failure')).toMatchObject({ level: 'ERROR', error: 'counter store inconsistent' });
    const crash = await logged(new Error('disk on fire'));
    expect(JSON.parse(crash.body)).toEqual({ status: 500, error: 'InternalError', message: 'Something went wrong on our side; the error has been logged' });
  });
});
