/**
 * Runs serverless-offline (the whole API over HTTP on one port, handlers served from source; see
 * scripts/sls/) as a child process and waits until `GET /api/health` answers 200 from THIS child:
 * the answer must carry the per-run id the child got (scripts/sls/api-gateway-fidelity.cjs), so
 * another server that holds the port is never taken for ours. Used by `npm start` and the e2e tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { QuietClock, slowdown } from './machine-load.ts';
import { forwardLines, isHandlerLogLine, isOfflineNotice } from './start/offline-output.ts';

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
  /**
   * Show the child's output (npm start) or only keep it for error reports (tests). `filtered` shows
   * what a developer needs (scripts/start/offline-output.ts); `all` is npm start's --verbose.
   */
  output?: 'all' | 'filtered';
  /** How long the start may take, in quiet-machine time (scripts/machine-load.ts); default 120 s. */
  budgetMs?: number;
  /** Probe only once this settles (npm start: the table exists), so the log shows no early 503s. */
  probeAfter?: Promise<unknown>;
  /** Called with the stop function as soon as the child exists, so Ctrl-C during start-up cleans up. */
  onSpawn?: (stop: () => Promise<void>) => void;
}): Promise<Offline> {
  const instanceId = randomUUID();
  const child = spawn(
    process.execPath,
    ['--require', fileURLToPath(new URL('./sls/tsx-esm-api-fix.cjs', import.meta.url)), fileURLToPath(new URL('../node_modules/serverless/bin/serverless.js', import.meta.url)), 'offline', 'start', '--stage', 'local'],
    {
      cwd: root,
      env: { ...process.env, ...options.env, PORT: String(options.port), LAMBDA_PORT: String(options.lambdaPort), SLS_TELEMETRY_DISABLED: '1', LOCAL_INSTANCE_ID: instanceId },
      // Piped in both cases: the output tells why a start failed (a taken port).
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  if (options.output === 'all') {
    child.stdout?.pipe(process.stdout);
    child.stderr?.pipe(process.stderr);
  } else if (options.output === 'filtered') {
    forwardLines(child.stdout!, process.stdout, isHandlerLogLine);
    forwardLines(child.stderr!, process.stderr, (line) => !isOfflineNotice(line));
  }
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
  const clock = new QuietClock(options.budgetMs ?? 120_000);
  if (options.probeAfter) await Promise.race([options.probeAfter.catch(() => undefined), exited]);
  while (!clock.expired()) {
    if (child.exitCode !== null) {
      if (/EADDRINUSE/.test(output)) throw new Error(`PORT ${options.port} is already in use (another npm start, or another program): choose another, e.g. PORT=${options.port + 1} npm start`);
      throw new Error(`serverless offline exited early${options.output ? ' (its output is above)' : `:\n${output}`}`);
    }
    try {
      // The first answer loads the health function (a cold start): on a busy machine that takes a while.
      const res = await fetch(`${url}/api/health`, { headers: { 'x-local-instance-probe': '1' }, signal: AbortSignal.timeout(5_000 * slowdown()) });
      await res.arrayBuffer();
      // 503 while DynamoDB Local or the table is not there yet; another server's answer lacks our id.
      if (res.status === 200 && res.headers.get('x-local-instance') === instanceId) return { url, process: child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`serverless offline did not answer within ${clock.describe()}:\n${output}`);
}
