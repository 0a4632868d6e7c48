/**
 * `npm run test:quick`: the edit loop's check, in about a minute on an idle 2-core machine. Side by
 * side: the type check, the lint (eslint, and knip's unused exports), the unit tests (both unit projects), and one smoke run over HTTP
 * (`npm start -- --in-memory` on free ports, then `npm run smoke` against it: health, a public read,
 * the docs page, the OpenAPI document). One line per step with its time; exit 1 when any failed, with
 * that step's output. `npm test` (CI) stays the full suite.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './dynamo-local.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const t0 = performance.now();
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

interface Outcome {
  name: string;
  ok: boolean;
  output: string;
}

/** Runs a command to its end, keeping its output for the report. */
function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (err) => (output += err.message));
    child.once('close', (code) => {
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds(started)})`);
      resolve({ name, ok: code === 0, output });
    });
  });
}

const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/** npm start on free ports, the smoke checks against it once it is ready, then Ctrl-C. */
async function smoke(): Promise<Outcome> {
  const started = performance.now();
  const [api, auth, dynamo] = [await freePort(), await freePort(), await freePort()];
  const env = { ...process.env, PORT: String(api), AUTH_SERVER_PORT: String(auth), DYNAMODB_PORT: String(dynamo), LOG_LEVEL: 'ERROR' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--in-memory'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const ended = new Promise<number | null>((resolve) => child.once('close', resolve));
  const ready = new Promise<boolean>((resolve) => {
    const read = (d: Buffer) => {
      output += d.toString();
      if (output.includes('is ready')) resolve(true);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void ended.then(() => resolve(false));
  });
  try {
    if (!(await ready)) {
      console.log(`FAIL smoke run over HTTP (${seconds(started)}): npm start ended before it was ready`);
      return { name: 'smoke run over HTTP', ok: false, output };
    }
    const checks = await run('smoke run over HTTP', process.execPath, ['--import', 'tsx', 'scripts/smoke.ts', '--url', `http://127.0.0.1:${api}`]);
    return { ...checks, output: `${checks.output}\n--- npm start ---\n${output}` };
  } finally {
    if (child.exitCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGINT');
      await ended;
    }
  }
}

const outcomes = await Promise.all([
  run('type check', bin('tsc'), ['--noEmit']),
  run('lint', bin('eslint'), ['--max-warnings', '0', '.']),
  run('unused exports', bin('knip'), []),
  run('unit tests', bin('vitest'), ['run', '--project', 'unit', '--project', 'unit-isolated']),
  smoke(),
]);
const failed = outcomes.filter((o) => !o.ok);
for (const o of failed) console.log(`\n--- ${o.name} ---\n${o.output.slice(-8_000)}`);
console.log(`\n${failed.length ? `${failed.length} of ${outcomes.length} failed` : 'all passed'} in ${seconds(t0)}`);
process.exit(failed.length ? 1 : 0);
