/**
 * One serverless-offline for all end-to-end files (handlers served from source, as `npm start` does),
 * against the run's DynamoDB Local (started by dynamo-global-setup.ts, listed before this).
 */
import type { TestProject } from 'vitest/node';
import { startOffline, type Offline } from '../../scripts/offline.ts';
import { freePort } from '../../scripts/dynamo-local.ts';
import { LOCAL_TABLE_NAME } from '../../scripts/local-stack-env.ts';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from './test-secrets.ts';


let api: Offline | undefined;

export default async function setup(project: TestProject) {
  const { ensureTable } = await import('#lib/store/db/table');
  await ensureTable(LOCAL_TABLE_NAME);
  api = await startOffline({
    port: await freePort(),
    lambdaPort: await freePort(),
    env: {
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!,
      API_SERVICE_TOKENS: TEST_SERVICE_TOKENS,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'ERROR',
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
