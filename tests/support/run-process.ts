/**
 * Runs a command to its end without blocking the test process and without a time limit of its own:
 * the test's budget of quiet-machine time (tests/support/load-aware-runner.ts) bounds it, so a busy
 * machine never fails it for being slow. A synchronous spawn would block the test's event loop: the
 * runner's clock stops, and a server the test runs in-process (an SSM endpoint, an auth server) can
 * no longer answer the command, which then waits for it until killed.
 */
import { spawn, type SpawnOptions } from 'node:child_process';

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
  /** Written to the command's standard input (which is otherwise closed). */
  input?: string;
}

export function runProcess(command: string, args: string[], { input, ...options }: RunOptions = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Like runProcess, and rejects with the output when the command fails. */
export async function runOk(command: string, args: string[], options: RunOptions = {}): Promise<Finished> {
  const finished = await runProcess(command, args, options);
  if (finished.status !== 0) throw new Error(`${[command, ...args].join(' ')} exited ${finished.status}:\n${finished.stdout.slice(-4_000)}\n${finished.stderr.slice(-4_000)}`);
  return finished;
}
