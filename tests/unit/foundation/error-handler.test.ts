/**
 * The one place errors become answers (lib/http/error-handler.ts, through lib/http/stack.ts): a 5xx
 * never carries what went wrong inside (message, stack, file paths, AWS names); typed errors keep
 * theirs. Written as the check a leak would fail (a 500 carrying `err.message` passed).
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { conflict, serviceUnavailable } from '#lib/errors';
import { withHttpStack } from '#lib/http/stack';

const SECRET = 'ConditionalCheckFailed on SITE#1 at /var/task/lib/store/users/users.ts:42 token=abc';

async function answerTo(err: unknown) {
  const handler = withHttpStack(async () => {
    throw err;
  });
  const event = { headers: {}, requestContext: { http: { method: 'GET', path: '/x' } }, rawPath: '/x' } as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'req-1', functionName: 'unit', getRemainingTimeInMillis: () => 1000 } as unknown as Context;
  const res = (await handler(event, context)) as { statusCode: number; body: string; headers?: Record<string, string> };
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown>, raw: res.body, headers: res.headers ?? {} };
}

describe('error answers', () => {
  it.each([
    ['an Error', Object.assign(new Error(SECRET), { name: 'TransactionCanceledException' })],
    ['a thrown string', SECRET],
    ['an object', { message: SECRET, stack: SECRET }],
  ])('%s becomes a 500 with the CONTRACT body and none of its text', async (_, err) => {
    const res = await answerTo(err);
    expect(res.status).toBe(500);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'status']);
    expect(res.body).toMatchObject({ status: 500, error: 'InternalError' });
    for (const part of ['ConditionalCheckFailed', 'SITE#1', '/var/task', 'token=abc', 'TransactionCanceled']) expect(res.raw).not.toContain(part);
  });

  it('a typed error keeps its status, name, message and headers', async () => {
    expect(await answerTo(conflict('Taken'))).toMatchObject({ status: 409, body: { status: 409, error: 'Conflict', message: 'Taken' } });
    const busy = await answerTo(serviceUnavailable('Busy', 2));
    expect(busy).toMatchObject({ status: 503, body: { status: 503, error: 'ServiceUnavailable', message: 'Busy' } });
    expect(busy.headers['retry-after']).toBe('2');
  });
});
