/**
 * Runs serverless-offline (the whole API over HTTP on one port) as a child process and waits until
 * `GET /api/site` answers. Used by `npm start` and the end-to-end tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Offline {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startOffline(options: {
  port: number;
  lambdaPort: number;
  env: Record<string, string>;
  /** Pipe the child's output through (npm start) or keep it for error reports (tests). */
  inheritOutput?: boolean;
  timeoutMs?: number;
  /** Called with the stop function as soon as the child exists, so Ctrl-C during start-up cleans up. */
  onSpawn?: (stop: () => Promise<void>) => void;
}): Promise<Offline> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../node_modules/serverless/bin/serverless.js', import.meta.url)), 'offline', 'start', '--stage', 'local'],
    {
      cwd: root,
      env: { ...process.env, ...options.env, PORT: String(options.port), LAMBDA_PORT: String(options.lambdaPort), SLS_TELEMETRY_DISABLED: '1' },
      stdio: options.inheritOutput ? 'inherit' : 'pipe',
      detached: process.platform !== 'win32',
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    // serverless-offline starts worker processes of its own: stop the whole process group.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  };

  options.onSpawn?.(stop);
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serverless offline exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/site`, { signal: AbortSignal.timeout(5_000) });
      if (res.status === 200) return { url, process: child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`serverless offline did not answer within the time limit:\n${output}`);
}
