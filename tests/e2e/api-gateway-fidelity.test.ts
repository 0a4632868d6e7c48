/**
 * The local HTTP stack answers what API Gateway (HTTP API, no `cors` block) answers in front of our
 * handlers, not what serverless-offline would on its own (scripts/sls/api-gateway-fidelity.cjs):
 * preflights are the handler's 204, no origin is reflected and no credentials are allowed unless the
 * handler says so, bodies reach the handler as text, a Lambda timeout is a 504 with the CONTRACT body
 * and no stack, and the server's own refusals (bad URLs) carry the CONTRACT body too.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { startOffline, type Offline } from '../../scripts/offline.ts';
import { freePort } from '../../scripts/dynamo-local.ts';
import { startAuthServer, type RunningAuthServer } from '../../scripts/auth-server/index.ts';
import { demoOauthConfig } from '../../scripts/auth-server/demo.ts';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from '#tests/support/test-secrets';
import type { SiteBody } from '#tests/support/bodies';

const apiUrl = inject('apiUrl');
const auth = { 'X-Authorization': `Bearer ${SERVICE_TOKEN}` };
const json = { 'Content-Type': 'application/json' };

async function call<T = unknown>(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}, base = apiUrl) {
  const res = await fetch(`${base}${path}`, { method, body: init.body, headers: init.headers, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A raw request (fetch would refuse or re-encode what these tests send). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let siteId: number;

beforeAll(async () => {
  const created = await call<SiteBody>('POST', '/api/site', {
    body: JSON.stringify({ name: 'fidelity', config: { allowedDomains: ['city.example.org'] } }),
    headers: { ...auth, ...json },
  });
  expect(created.status).toBe(201);
  siteId = created.body.id;
});

describe('CORS as the handlers answer it', () => {
  it('answers a preflight with the handler 204 and its headers', async () => {
    const res = await fetch(`${apiUrl}/api/site/${siteId}/idea`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://city.example.org', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://city.example.org');
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it.each(['https://evil.example', 'null'])('never reflects the origin %s, on preflights or writes', async (origin) => {
    const preflight = await fetch(`${apiUrl}/api/site/${siteId}/idea`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).not.toBe(origin);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const write = await call('PUT', `/api/site/${siteId}`, { body: JSON.stringify({ title: 'T' }), headers: { ...auth, ...json, Origin: origin } });
    expect(write.status).toBe(200);
    expect(write.headers.get('access-control-allow-origin')).not.toBe(origin);
    expect(write.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('bodies as API Gateway sends them', () => {
  it.each(['false', '0', 'null', 'true', '"text"', '12'])('hands the JSON body %s to the handler as text (a 400, never a 500)', async (body) => {
    const res = await call('POST', '/api/site', { body, headers: { ...auth, ...json } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'ValidationError' });
  });
});

describe('errors the server itself gives', () => {
  it('answers bad percent-encoding in the path with the CONTRACT body', async () => {
    const res = await rawGet(apiUrl, '/api/site/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, error: 'BadRequest', message: expect.any(String) });
  });

  it('passes bad percent-encoding in the query to the handler, which answers JSON', async () => {
    const res = await rawGet(apiUrl, `/api/site/${siteId}/idea?x=%E0%A4%A`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toHaveProperty('records');
  });

  it('answers a URL over the size limit with the CONTRACT body', async () => {
    const res = await rawGet(apiUrl, `/api/site?pageSize=1&x=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, error: 'BadRequest' });
  });
});

describe('a Lambda timeout', () => {
  let slowApi: Offline;
  let authServer: RunningAuthServer;

  beforeAll(async () => {
    authServer = await startAuthServer({ port: 0, clients: [{ clientId: 'slow-client', clientSecret: 'slow-client-secret-0123456789' }] });
    // Its own serverless-offline with a 1 s function timeout (starting one costs a few seconds).
    slowApi = await startOffline({
      port: await freePort(),
      lambdaPort: await freePort(),
      env: {
        DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
        API_SERVICE_TOKENS: TEST_SERVICE_TOKENS,
        JWT_SECRET: TEST_JWT_SECRET,
        LOG_LEVEL: 'ERROR',
        LAMBDA_TIMEOUT_SECONDS: '1',
      },
    });
  });
  afterAll(async () => {
    await slowApi?.stop();
    await authServer?.stop();
  });

  it('is a 504 with the CONTRACT body and no stack or file path', async () => {
    const site = await call<SiteBody>('POST', '/api/site', {
      body: JSON.stringify({ name: 'slow', config: { oauth: { default: demoOauthConfig(authServer.url, { clientId: 'slow-client', clientSecret: 'slow-client-secret-0123456789' }) } } }),
      headers: { ...auth, ...json },
    });
    expect(site.status).toBe(201);
    // The auth server takes 3 s to create the user (within the API's own 4 s limit for it).
    authServer.control.delays.adminCreate = 3_000;
    const res = await call('POST', `/api/site/${site.body.id}/user`, { body: JSON.stringify({ email: 'slow@example.org' }), headers: { ...auth, ...json } }, slowApi.url);
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ status: 504, error: 'GatewayTimeout', message: expect.any(String) });
    expect(res.text).not.toMatch(/stack|\.ts|node_modules|\/work\//i);
  });
});
