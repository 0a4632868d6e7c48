/**
 * One serverless-offline for all end-to-end files (handlers served from source, as `npm start` does),
 * against the run's DynamoDB Local (started by dynamo-global-setup.ts, listed before this).
 *
 * Its function timeout is Lambda's 10 s as a quiet machine spends it: on a busy machine
 * (scripts/machine-load.ts) the same work takes longer, and a request the API would answer in 1 s is
 * not turned into a 504 because other work shares the cores. The 504 itself is tested on a stack of
 * its own with a 1 s timeout (tests/e2e/api-gateway-fidelity.test.ts).
 */
import type { TestProject } from 'vitest/node';
import { startOffline, type Offline } from '../../scripts/offline.ts';
import { freePort } from '../../scripts/dynamo-local.ts';
import { slowdown } from '../../scripts/machine-load.ts';
import { LOCAL_TABLE_NAME } from '../../scripts/local-stack-env.ts';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from './test-secrets.ts';

let api: Offline | undefined;

export default async function setup(project: TestProject) {
  const { ensureTable } = await import('#lib/store/table');
  await ensureTable(LOCAL_TABLE_NAME);
  api = await startOffline({
    port: await freePort(),
    lambdaPort: await freePort(),
    env: {
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!,
      API_SERVICE_TOKENS: TEST_SERVICE_TOKENS,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'ERROR',
      LAMBDA_TIMEOUT_SECONDS: String(Math.ceil(10 * slowdown())),
    },
  });
  project.provide('apiUrl', api.url);
  return async () => {
    await api?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
  }
}
