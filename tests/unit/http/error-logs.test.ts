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
const { badGateway, forbidden } = await import('#lib/errors');

async function logged(outcome: unknown) {
  const written: string[] = [];
  // Off Lambda the logger writes warnings and errors to stderr and the rest to stdout: both are read.
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
  const handler = withHttpStack(async () => {
    if (outcome instanceof Error) throw outcome;
    return { statusCode: 200, body: '{}' };
  });
  const event = { headers: {}, routeKey: 'GET /x', requestContext: { http: { method: 'GET', path: '/x' } }, rawPath: '/x' };
  const res = (await handler(event as never, { awsRequestId: 'req-9', functionName: 'unit', getRemainingTimeInMillis: () => 1000 } as never)) as { statusCode: number };
  for (const spy of spies) spy.mockRestore();
  const lines = written.flatMap((c) => c.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: res.statusCode, lines };
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
});
