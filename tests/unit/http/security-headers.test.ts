/**
 * The security headers of the shared stack (lib/http/stack.ts) on every answer, an error answer too:
 * resources readable cross-origin (the API is called cross-origin by design), and a Permissions-Policy
 * that switches off every powerful browser feature while naming only features browsers know (a real
 * browser's check of the same header: tests/e2e/permissions-policy.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { forbidden } from '#lib/errors';
import { withHttpStack } from '#lib/http/stack';

const event = { headers: {}, routeKey: 'GET /x', rawPath: '/x', requestContext: { http: { method: 'GET', path: '/x' } } } as unknown as APIGatewayProxyEventV2;
const context = { awsRequestId: 'r', functionName: 'unit', getRemainingTimeInMillis: () => 1000 } as unknown as Context;

async function headersOf(outcome: 'answer' | 'throw'): Promise<Record<string, string>> {
  const handler = withHttpStack(async () => {
    if (outcome === 'throw') throw forbidden('No');
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
  });
  const res = (await handler(event, context)) as { statusCode: number; headers: Record<string, string> };
  expect(res.statusCode).toBe(outcome === 'throw' ? 403 : 200);
  return res.headers;
}

/** Every feature Chromium, Firefox or Safari knows that a page of the API could ask for. */
const SWITCHED_OFF = [
  'accelerometer', 'autoplay', 'camera', 'display-capture', 'encrypted-media', 'fullscreen', 'geolocation', 'gyroscope',
  'magnetometer', 'microphone', 'midi', 'payment', 'picture-in-picture', 'publickey-credentials-get', 'screen-wake-lock',
  'serial', 'sync-xhr', 'usb', 'xr-spatial-tracking',
];

describe.each([['answer'], ['throw']] as const)('security headers of an %s', (outcome) => {
  it('Permissions-Policy switches off exactly the known powerful features, each allowed to no origin', async () => {
    const policy = (await headersOf(outcome))['Permissions-Policy'];
    expect(policy).toBeDefined();
    const directives = policy!.split(', ');
    expect(directives.map((d) => d.replace(/=.*$/, '')).sort()).toEqual([...SWITCHED_OFF].sort());
    for (const directive of directives) expect(directive, directive).toMatch(/^[a-z-]+=\(\)$/);
    // Middy's own list names features no browser knows (each logs a warning in Chromium): not sent.
    expect(policy).not.toMatch(/battery|ambient-light-sensor|document-domain/);
  });

  it('the API may be read cross-origin (CORS decides who), never framed, never sniffed', async () => {
    const headers = await headersOf(outcome);
    expect(headers['Cross-Origin-Resource-Policy']).toBe('cross-origin');
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
  });
});
