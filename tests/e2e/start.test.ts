/**
 * `npm start` as a developer runs it (scripts/start.ts in a child process, free ports): it is honest
 * about what it could not do (a taken port named by its variable, a data folder in use, exit code 1,
 * never "ready"), and when it is ready the API, its health check and the demo site's login all point
 * at the servers of this run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/dynamo-local.ts';
import { startRun as startRunOf } from '#tests/support/npm-start';

const SERVICE_TOKEN = 'start-test-service-token-0123456789';
const dataDirs: string[] = [];

const startRun = (env: Record<string, string>, args?: string[]) => startRunOf({ API_SERVICE_TOKENS: SERVICE_TOKEN, ...env }, args);

/** Another program on a port (what a second npm start or any server would be). */
async function occupy(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 15\r\n\r\n{"status":"ok"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start refuses what it cannot do', () => {
  it.each(['PORT', 'AUTH_SERVER_PORT', 'DYNAMODB_PORT'])('names %s when that port is taken, exits 1 and never says ready', async (variable) => {
    const taken = await occupy();
    try {
      const env: Record<string, string> = { PORT: String(await freePort()), AUTH_SERVER_PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()) };
      env[variable] = String(taken.port);
      const run = startRun(env);
      expect(await run.exit).toBe(1);
      expect(run.output()).toContain(`${variable} ${taken.port} is already in use`);
      expect(run.output()).not.toContain('is ready');
    } finally {
      taken.server.close();
    }
  });

  it('refuses a data folder another running npm start holds, naming it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-lock-'));
    dataDirs.push(dataDir);
    // This test process is alive: it plays the other instance.
    writeFileSync(join(dataDir, 'lock'), JSON.stringify({ pid: process.pid, url: 'http://localhost:3000' }));
    const run = startRun({ PORT: String(await freePort()), AUTH_SERVER_PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), LOCAL_DATA_DIR: dataDir }, []);
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain(`is in use by another npm start (pid ${process.pid}`);
    expect(run.output()).not.toContain('is ready');
  });
});

describe('npm start when it is ready', () => {
  const siteAuthUrl = async (port: number) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/site/1`, { headers: { 'X-Authorization': `Bearer ${SERVICE_TOKEN}` } });
    expect(res.status).toBe(200);
    const site = (await res.json()) as { config: { oauth: { default: Record<string, string> } } };
    return site.config.oauth.default['auth-server-url'];
  };

  it('answers /api/health, and the demo site logs in at the auth server of each run, on kept data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-data-'));
    dataDirs.push(dataDir);
    const ports = async () => ({ PORT: String(await freePort()), AUTH_SERVER_PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), LOCAL_DATA_DIR: dataDir });

    const first = await ports();
    const run1 = startRun(first, []);
    try {
      await run1.ready;
      // Without --verbose: the status block, none of serverless-offline's route table or function list.
      expect(run1.output()).toContain('Dev token');
      expect(run1.output()).not.toMatch(/\(λ: |Function names exposed/);
      const health = await fetch(`http://127.0.0.1:${first.PORT}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(await siteAuthUrl(Number(first.PORT))).toBe(`http://127.0.0.1:${first.AUTH_SERVER_PORT}`);
    } finally {
      await run1.stop();
    }

    const second = await ports();
    const run2 = startRun(second, []);
    try {
      await run2.ready;
      expect(await siteAuthUrl(Number(second.PORT))).toBe(`http://127.0.0.1:${second.AUTH_SERVER_PORT}`);
    } finally {
      await run2.stop();
    }
  });
});
