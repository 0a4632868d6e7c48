/**
 * Live reload of the local stack (scripts/sls/source-handlers.cjs, handler-host.cjs): a change to a
 * source file makes the next request load the code again, and a request already running when the
 * change lands is answered by the code it started with, not cut off (with one worker thread per
 * function, serverless-offline ended that thread and the request hung until the function timeout).
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { utimesSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { startOffline, type Offline } from '../../scripts/offline.ts';
import { freePort } from '../../scripts/dynamo-local.ts';
import { QuietClock } from '../../scripts/machine-load.ts';
import { startAuthServer, type RunningAuthServer } from '../../scripts/auth-server/index.ts';
import { demoOauthConfig } from '../../scripts/auth-server/demo.ts';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from '#tests/support/test-secrets';
import type { SiteBody } from '#tests/support/bodies';

const headers = { 'X-Authorization': `Bearer ${SERVICE_TOKEN}`, 'Content-Type': 'application/json' };
/** A watched source file; only its modification time is changed, never its content. */
const WATCHED_FILE = fileURLToPath(new URL('../../functions/system/health.ts', import.meta.url));
const CLIENT = { clientId: 'reload-client', clientSecret: 'reload-client-secret-0123456789' };

let api: Offline;
let authServer: RunningAuthServer;
let output = '';

async function call<T = unknown>(method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Waits for `check` (a reload takes well under a second; 15 s of quiet-machine time is the hang limit). */
async function until(what: string, check: () => boolean) {
  const clock = new QuietClock(15_000);
  while (!check() && !clock.expired()) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`never happened within ${clock.describe()}: ${what}\n${output.slice(-2_000)}`);
}

beforeAll(async () => {
  authServer = await startAuthServer({ port: 0, clients: [CLIENT] });
  // Its own serverless-offline, so its output (the reload line) can be read.
  api = await startOffline({
    port: await freePort(),
    lambdaPort: await freePort(),
    env: { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), API_SERVICE_TOKENS: TEST_SERVICE_TOKENS, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'ERROR' },
  });
  // The reload notice is on stderr (where npm start shows the handler host's notices).
  api.process.stderr?.on('data', (d: Buffer) => (output += d.toString()));
});
afterAll(async () => {
  await api?.stop();
  await authServer?.stop();
});

it('answers a request that runs across a reload, and the requests after it', async () => {
  const site = await call<SiteBody>('POST', '/api/site', { name: 'reload', config: { oauth: { default: demoOauthConfig(authServer.url, CLIENT) } } });
  expect(site.status).toBe(201);
  // Creating a user waits on the auth server (3 s, within the API's own 4 s limit for that call).
  authServer.control.delays.adminCreate = 3_000;
  const running = call('POST', `/api/site/${site.body.id}/user`, { email: 'across-reload@example.org' });
  let answered = false;
  void running.finally(() => (answered = true));
  await until('the handler calls the auth server', () => authServer.control.requests.some((r) => r.method === 'POST' && r.path === '/api/admin/user'));

  const reloadsBefore = output.split('handlers reloaded').length;
  const now = new Date();
  utimesSync(WATCHED_FILE, now, now);
  await until('the handlers reload', () => output.split('handlers reloaded').length > reloadsBefore);
  // The reload came while the request was still waiting on the auth server.
  expect(answered).toBe(false);

  expect((await running).status).toBe(201);
  authServer.control.delays = {};
  const next = await call<{ status: string }>('GET', '/api/health');
  expect(next).toEqual({ status: 200, body: { status: 'ok' } });
});
