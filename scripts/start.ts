/**
 * `npm start`: the whole API on http://localhost:${PORT:-3000} with no AWS account and no external
 * service: AWS's DynamoDB Local (data under .data/ unless --in-memory), the table, a demo site on an
 * empty database, and serverless-offline. Ctrl-C stops everything it started.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { devDefaults } from '#lib/config/env';
import { freePort, JAVA_HINT, startDynamoLocal, type DynamoLocal } from './dynamo-local.ts';
import { startOffline, type Offline } from './offline.ts';
import { startAuthServer } from './auth-server/index.ts';
import { DEMO_CLIENT, DEMO_USERS, demoOauthConfig } from './auth-server/demo.ts';

const inMemory = process.argv.includes('--in-memory');
const port = Number(process.env.PORT ?? 3000);
const stopping: Array<() => Promise<void>> = [];

function devDefault(name: string, value: string, shown = value) {
  if (process.env[name]) return;
  process.env[name] = value;
  console.log(`  ${name} is not set; using the dev default: ${shown}`);
}

async function main() {
  console.log('Starting the participation API locally…');
  devDefault('PORT', String(port));
  devDefault('API_SERVICE_TOKENS', devDefaults.serviceToken);
  devDefault('JWT_SECRET', devDefaults.jwtSecret);
  process.env.STAGE = 'local';
  process.env.TABLE_NAME = 'participation-api-local';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

  const dataDir = fileURLToPath(new URL('../.data/dynamodb', import.meta.url));
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  let dynamo: DynamoLocal;
  try {
    dynamo = await startDynamoLocal({ port: Number(process.env.DYNAMODB_PORT ?? 8000), dataDir: inMemory ? undefined : dataDir });
  } catch (err) {
    if ((err as Error).message === JAVA_HINT) throw err;
    // Port 8000 taken (another DynamoDB Local?): use a free one.
    dynamo = await startDynamoLocal({ port: await freePort(), dataDir: inMemory ? undefined : dataDir });
  }
  stopping.push(() => dynamo.stop());
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  console.log(`  DynamoDB Local: ${dynamo.endpoint} (${inMemory ? 'in memory' : `data in ${dataDir}`})`);

  // The local OAuth 2.0 server the demo site logs in with (users in memory, no passwords).
  const auth = await startAuthServer({ port: Number(process.env.AUTH_SERVER_PORT ?? 4000), clients: [DEMO_CLIENT], users: DEMO_USERS });
  stopping.push(() => auth.stop());
  console.log(`  local auth server: ${auth.url} (demo users: ${DEMO_USERS.map((u) => u.email).join(', ')})`);

  const { ensureTable } = await import('#lib/store/table');
  const { seedDemoSite } = await import('./seed.ts');
  if (await ensureTable()) console.log(`  created table ${process.env.TABLE_NAME}`);
  const seeded = await seedDemoSite({ oauth: demoOauthConfig(auth.url) });
  if (seeded) console.log(`  seeded the demo site (id ${seeded})`);

  const offline: Offline = await startOffline({
    port,
    lambdaPort: await freePort(),
    env: {
      STAGE: 'local',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      JWT_SECRET: process.env.JWT_SECRET!,
      API_SERVICE_TOKENS: process.env.API_SERVICE_TOKENS!,
    },
    inheritOutput: true,
    onSpawn: (stop) => stopping.unshift(stop),
  });
  const token = process.env.API_SERVICE_TOKENS!.split(',')[0];
  console.log(`
The participation API is ready: ${offline.url.replace('127.0.0.1', 'localhost')}
  curl http://localhost:${port}/api/site/
  curl -H 'X-Authorization: Bearer ${token}' http://localhost:${port}/api/site/1
Log in on the demo site in a browser (the JWT comes back in the jwt= query parameter):
  http://localhost:${port}/oauth/site/1/login?redirectUrl=http://localhost:${port}/api/site/1
Press Ctrl-C to stop.`);
}

async function shutdown(code = 0) {
  for (const stop of stopping.splice(0)) await stop().catch(() => undefined);
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (err) => {
  console.error(`\nnpm start failed: ${(err as Error).message}`);
  await shutdown(1);
});
