/**
 * The one-off scripts find the stack `npm start` runs, and no other (the finding: with
 * `npm start -- --in-memory` they used 127.0.0.1:8000 whatever ran there, and `verify-votes` said OK
 * for a site that does not exist). Against a real `npm start -- --in-memory` on a free DynamoDB port:
 * the README's lines work as written; an unknown `--site` exits 2; DYNAMODB_ENDPOINT wins when given;
 * with no stack running, or a stale record of one, or two stacks, the scripts refuse and say why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/dynamo-local.ts';
import { root, startRun, type Run } from '#tests/support/npm-start';

const SERVICE_TOKEN = 'scripts-test-service-token-0123456789';

/** `npm run <script> -- <args>` as a developer types it, with this test's data root and no endpoint unless given. */
function npmRun(script: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: Record<string, string | undefined> = { ...process.env, DYNAMODB_ENDPOINT: undefined, TABLE_NAME: undefined, STAGE: undefined, ...env };
  const childEnv = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: childEnv, timeout: 180_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let run: Run;
let api: string;
let dynamoPort: number;
beforeAll(async () => {
  dynamoPort = await freePort();
  const port = await freePort();
  const LOCAL_DATA_DIR = mkdtempSync(join(tmpdir(), 'scripts-stack-'));
  run = startRun({ PORT: String(port), AUTH_SERVER_PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort), API_SERVICE_TOKENS: SERVICE_TOKEN, JOBS_INTERVAL_SECONDS: '3600', LOCAL_DATA_DIR });
  await run.ready;
  api = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await run?.stop();
  if (run) rmSync(run.dataDir, { recursive: true, force: true });
});

describe('the scripts against a running npm start -- --in-memory', () => {
  it("find its DynamoDB by themselves: the README's lines, as written", async () => {
    const env = { LOCAL_DATA_DIR: run.dataDir };
    const seeded = await npmRun('seed', ['--demo'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stderr).toContain(`127.0.0.1:${dynamoPort}`);
    // What the seed wrote is what this stack's API serves.
    const ideas = (await (await fetch(`${api}/api/site/1/idea`)).json()) as { records: unknown[] };
    expect(ideas.records.length).toBe(5);
    const verified = await npmRun('verify-votes', ['--site', '1'], env);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);
    const job = await npmRun('job', ['close-ideas', '--site', '1'], env);
    expect(job.code, job.stderr).toBe(0);
    expect(job.stdout).toContain('running close-ideas on site 1');
    const migrated = await npmRun('migrate', ['--dry-run'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
  });

  it('an unknown --site is exit 2 saying so, never an OK', async () => {
    const env = { LOCAL_DATA_DIR: run.dataDir };
    for (const [script, args] of [['verify-votes', ['--site', '999']], ['job', ['end-projects', '--site', '999']], ['migrate', ['--site', '999']], ['seed', ['--demo', '--site', '999']]] as const) {
      const result = await npmRun(script, [...args], env);
      expect(result.code, `${script}: ${result.stdout}${result.stderr}`).toBe(2);
      expect(result.stderr).toContain('there is no site 999');
      expect(result.stdout).not.toMatch(/\bOK\b/);
    }
  });

  it('DYNAMODB_ENDPOINT wins over the running stack', async () => {
    // Another DynamoDB Local (this test run's own), whose table has no site 1 of this stack.
    const other = process.env.DYNAMODB_ENDPOINT!;
    const result = await npmRun('verify-votes', ['--site', '999999999'], { LOCAL_DATA_DIR: run.dataDir, DYNAMODB_ENDPOINT: other });
    expect(result.stderr).toContain(other);
    expect(result.stderr).not.toContain(`127.0.0.1:${dynamoPort}`);
  });

  it('two stacks running: the scripts refuse to guess and name both', async () => {
    const dir = join(run.dataDir, 'stacks');
    const [own] = readdirSync(dir);
    // This test process plays a second npm start (it is alive).
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, apiUrl: 'http://localhost:3999', dynamoEndpoint: 'http://127.0.0.1:8999', authServerUrl: 'x', tableName: 'participation-api-local', inMemory: true, since: new Date().toISOString() }));
    try {
      const result = await npmRun('verify-votes', ['--site', '1'], { LOCAL_DATA_DIR: run.dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('2 local stacks are running');
      expect(result.stderr).toContain('http://127.0.0.1:8999');
      expect(result.stderr).toContain(`127.0.0.1:${dynamoPort}`);
    } finally {
      rmSync(join(dir, `${process.pid}.json`), { force: true });
    }
    expect(readdirSync(dir)).toEqual([own]);
  });
});

describe('no stack running', () => {
  it('once npm start stops, its record is gone and the scripts refuse with a clear message (exit 1)', async () => {
    await run.stop();
    expect(readdirSync(join(run.dataDir, 'stacks'))).toEqual([]);
    const none = await npmRun('verify-votes', ['--site', '1'], { LOCAL_DATA_DIR: run.dataDir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No local stack is running');
    expect(none.stdout).toBe('');
  });

  it('a stale record of a stack that crashed does not count, and is cleared away', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-stack-'));
    try {
      mkdirSync(join(empty, 'stacks'));
      // Above any pid Linux hands out: a process that is gone.
      const gone = 2 ** 22 + 12_345;
      writeFileSync(join(empty, 'stacks', `${gone}.json`), JSON.stringify({ pid: gone, apiUrl: 'http://localhost:3000', dynamoEndpoint: 'http://127.0.0.1:8000', since: new Date().toISOString() }));
      const stale = await npmRun('seed', ['--demo'], { LOCAL_DATA_DIR: empty });
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain('No local stack is running');
      expect(readdirSync(join(empty, 'stacks'))).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
