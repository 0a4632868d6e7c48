/**
 * `npm start`: the whole API on http://localhost:${PORT:-3000} with no AWS account and no external
 * service: AWS's DynamoDB Local (data under .data/ unless --in-memory), the table, a demo site, the
 * local auth server and serverless-offline serving the handlers from source. The processes start side
 * by side; a short status block says where everything is once the API answers. `--verbose` shows
 * serverless-offline's own output (its route table, three lines per request); without it only what a
 * developer acts on is shown (scripts/start/offline-output.ts). Ctrl-C stops everything it started.
 *
 * Honest about failures: a taken port is an error naming its variable (PORT, AUTH_SERVER_PORT,
 * DYNAMODB_PORT) and exit code 1; "ready" is printed only when OUR server answers `GET /api/health`
 * (scripts/offline.ts checks a per-run id); one `npm start` at a time may use .data/ (a lock file).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { devDefaults } from '#lib/config/env';
import { freePort, JAVA_HINT, startDynamoLocal, type DynamoLocal } from './dynamo-local.ts';
import { startOffline } from './offline.ts';
import { startAuthServer } from './auth-server/index.ts';
import { DEMO_CLIENT, DEMO_USERS, demoOauthConfig } from './auth-server/demo.ts';
import { choosePorts, type PortChoice } from './start/ports.ts';
import { lockDataDir } from './start/data-lock.ts';
import { statusBlock } from './start/status.ts';
import { LOCAL_TABLE_NAME } from './local-stack-env.ts';
import { jobIntervalSeconds } from './job-interval.ts';
import { announceStack, dataRoot as localDataRoot } from './start/running-stacks.ts';

const inMemory = process.argv.includes('--in-memory');
const demo = process.argv.includes('--demo');
const verbose = process.argv.includes('--verbose');
const stopping: Array<() => Promise<void>> = [];
/** Released last, once DynamoDB Local no longer writes to .data/. */
let releaseDataLock: (() => Promise<void>) | undefined;
const t0 = performance.now();
const seconds = () => ((performance.now() - t0) / 1000).toFixed(1);
/** A progress line: every phase with --verbose, only the slow or unusual ones without. */
const phase = (text: string, always = false) => {
  if (always || verbose) console.log(`[${seconds()} s] ${text}`);
};
const defaultsUsed: string[] = [];

function devDefault(name: string, value: string, shown = value) {
  if (process.env[name]) return;
  process.env[name] = value;
  defaultsUsed.push(`${name}=${shown}`);
}

const describePort = (p: PortChoice) => `${p.variable}=${p.port}${p.fellBack ? ` (${p.requested} was taken)` : ''}`;

async function main() {
  console.log(`Starting the participation API locally${verbose ? '' : ' (npm start -- --verbose shows every phase and serverless-offline’s output)'}…`);
  // .env (see .env.example): read once; variables already set in the shell win.
  const dotenv = fileURLToPath(new URL('../.env', import.meta.url));
  if (existsSync(dotenv)) {
    process.loadEnvFile(dotenv);
    phase('read .env', true);
  }
  devDefault('API_SERVICE_TOKENS', devDefaults.serviceToken);
  devDefault('JWT_SECRET', devDefaults.jwtSecret, '(a dev secret)');
  if (defaultsUsed.length) phase(`not set, so the dev defaults are used: ${defaultsUsed.join(', ')}`, true);
  process.env.STAGE = 'local';
  process.env.TABLE_NAME = LOCAL_TABLE_NAME;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // Compiled code of every module is kept between starts (Node's compile cache): osls alone loads
  // thousands of files. The child processes (serverless-offline) inherit it.
  process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('../node_modules/.cache/node-compile-cache', import.meta.url));

  const ports = await choosePorts();
  const fellBack = [ports.auth, ports.dynamo].some((p) => p.fellBack);
  phase(`ports free: ${[ports.api, ports.auth, ports.dynamo].map(describePort).join(', ')}`, fellBack);

  // LOCAL_DATA_DIR: another data folder (a second persistent instance, tests); default .data/.
  const dataRoot = localDataRoot();
  const dataDir = `${dataRoot}/dynamodb`;
  if (!inMemory) {
    releaseDataLock = lockDataDir(dataRoot, ports.api.port, `http://127.0.0.1:${ports.dynamo.port}`);
    mkdirSync(dataDir, { recursive: true });
    phase(`data folder locked for this instance (${dataRoot}/lock)`);
  }

  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${ports.dynamo.port}`;
  // Side by side: Java's start-up, serverless-offline's (it waits for the table through its
  // readiness probe), the auth server and the loading of the store's modules for the table and seed.
  const dynamoStarting = startDynamoLocal({ port: ports.dynamo.port, dataDir: inMemory ? undefined : dataDir }).then((d) => {
    stopping.push(() => d.stop());
    return d;
  });
  let tableReady!: () => void;
  const probeAfter = new Promise<void>((resolve) => (tableReady = resolve));
  const offlineStarting = startOffline({
    port: ports.api.port,
    lambdaPort: await freePort(),
    env: {
      STAGE: 'local',
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      JWT_SECRET: process.env.JWT_SECRET!,
      API_SERVICE_TOKENS: process.env.API_SERVICE_TOKENS!,
    },
    output: verbose ? 'all' : 'filtered',
    probeAfter,
    onSpawn: (stop) => stopping.unshift(stop),
  });
  // Either failing first ends the start (the other is stopped by shutdown).
  offlineStarting.catch(() => undefined);
  dynamoStarting.catch(() => undefined);
  const storeLoading = Promise.all([import('#lib/store/db/table'), import('./seed.ts')]);
  phase('DynamoDB Local and serverless-offline starting');

  const auth = await startAuthServer({ port: ports.auth.port, clients: [DEMO_CLIENT], users: DEMO_USERS });
  stopping.push(() => auth.stop());
  phase(`local auth server: ${auth.url}`);

  let dynamo: DynamoLocal;
  try {
    dynamo = await dynamoStarting;
  } catch (err) {
    if ((err as Error).message === JAVA_HINT) throw err;
    throw new Error(`DynamoDB Local did not start on DYNAMODB_PORT=${ports.dynamo.port}: ${(err as Error).message}`, { cause: err });
  }
  phase(`DynamoDB Local: ${dynamo.endpoint} (${inMemory ? 'in memory' : `data in ${dataDir}`})`);

  const [{ ensureTable }, { seedDemoSite, pointDemoSitesAt }] = await storeLoading;
  const created = await ensureTable();
  const seeded = await seedDemoSite({ oauth: demoOauthConfig(auth.url) });
  const repointed = seeded ? 0 : await pointDemoSitesAt(auth.url);
  phase(
    `table ${process.env.TABLE_NAME} ${created ? 'created' : 'found'}; ` +
      (seeded ? `demo site created (id ${seeded})` : `demo site logins point at ${auth.url}${repointed ? ` (${repointed} updated)` : ''}`),
  );

  if (demo) {
    const { seedDemoContent } = await import('./seed-demo.ts');
    const written = await seedDemoContent(seeded ?? 1);
    phase(written ? `demo content: ${written.ideas} ideas, ${written.arguments} arguments, ${written.votes} likes, ${written.articles} articles` : 'demo content: the demo site already has ideas', true);
  }
  tableReady();
  const offline = await offlineStarting;
  phase('serverless-offline answers GET /api/health');
  // Where the one-off scripts (seed, job, verify-votes, migrate) find this stack: <data root>/stacks.
  const forget = announceStack({
    apiUrl: offline.url.replace('127.0.0.1', 'localhost'),
    dynamoEndpoint: dynamo.endpoint,
    authServerUrl: auth.url,
    tableName: LOCAL_TABLE_NAME,
    inMemory,
  });
  stopping.unshift(async () => forget());
  console.log(
    statusBlock({
      seconds: seconds(),
      apiUrl: offline.url.replace('127.0.0.1', 'localhost'),
      authUrl: auth.url,
      demoUsers: DEMO_USERS.map((u) => u.email),
      dynamoEndpoint: dynamo.endpoint,
      inMemory,
      dataDir,
      serviceToken: process.env.API_SERVICE_TOKENS!.split(',')[0]!,
      jobsEverySeconds: jobIntervalSeconds(),
    }),
  );
  // The scheduled jobs (lib/jobs, the same code as their Lambdas) on a short interval; loading them
  // is not on the way to ready.
  const { startJobLoop } = await import('./job-loop.ts');
  const jobs = await startJobLoop({ quiet: true });
  stopping.unshift(() => jobs.stop());
}

async function shutdown(code = 0) {
  for (const stop of stopping.splice(0)) await stop().catch(() => undefined);
  await releaseDataLock?.().catch(() => undefined);
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (err) => {
  console.error(`\nnpm start failed: ${(err as Error).message}`);
  await shutdown(1);
});
