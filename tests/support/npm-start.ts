/**
 * `npm start` as a developer runs it (scripts/start.ts in a child process of its own group), for the
 * end-to-end tests of the local stack. Each run records itself in its own data root (LOCAL_DATA_DIR, a
 * fresh temporary folder unless the test names one), so a test's stack is never the one a
 * developer's scripts find.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Run {
  /** Resolves with the exit code once the process ended. */
  exit: Promise<number | null>;
  output: () => string;
  /** Resolves when "is ready" appears; rejects when the process ends first. */
  ready: Promise<void>;
  /** The data root of this run (where it records itself). */
  dataDir: string;
  stop(): Promise<void>;
}

export function startRun(env: Record<string, string>, args: string[] = ['--in-memory']): Run {
  const ownDir = env.LOCAL_DATA_DIR === undefined;
  const dataDir = env.LOCAL_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'npm-start-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'ERROR', ...env, LOCAL_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (ownDir) void exit.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('is ready')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exit.then((code) => reject(new Error(`npm start ended (${code}) before ready:\n${output}`)));
  });
  ready.catch(() => undefined);
  return {
    exit,
    output: () => output,
    ready,
    dataDir,
    async stop() {
      if (child.exitCode !== null) return;
      process.kill(child.pid!, 'SIGINT');
      await Promise.race([exit, new Promise((r) => setTimeout(r, 20_000))]);
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}
