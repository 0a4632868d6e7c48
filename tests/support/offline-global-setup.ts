/**
 * One serverless-offline for all end-to-end files (handlers served from source, as `npm start` does),
 * against the run's DynamoDB Local (started by dynamo-global-setup.ts, listed before this).
 *
 * Its function timeout, counted from the handler's start (scripts/sls/handler-host.cjs), is a minute
 * of quiet-machine time at the load it starts at (scripts/machine-load.ts): no request of these tests
 * takes a second of handler time on an idle machine, so only a hang reaches it, not a busy machine.
 * Lambda's own timeout and its 504 are tested on a stack of their own with a 1 s timeout
 * (tests/e2e/api-gateway-fidelity.test.ts).
 */
import type { TestProject } from 'vitest/node';
import { startOffline, type Offline } from '../../scripts/offline.ts';
import { freePort } from '../../scripts/dynamo-local.ts';
import { slowdown } from '../../scripts/machine-load.ts';
import { LOCAL_TABLE_NAME } from '../../scripts/local-stack-env.ts';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from './test-secrets.ts';

let api: Offline | undefined;

/** A start that fails is handed to the files that use this stack, not thrown (see dynamo-global-setup.ts). */
export default async function setup(project: TestProject) {
  try {
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
        // (900 s: Lambda's largest timeout, past which serverless.yml would not validate.)
        LAMBDA_TIMEOUT_SECONDS: String(Math.min(900, Math.ceil(60 * slowdown()))),
      },
    });
    project.provide('apiUrl', api.url);
    project.provide('apiStartError', '');
  } catch (error) {
    project.provide('apiUrl', 'http://127.0.0.1:9');
    project.provide('apiStartError', `The local stack (serverless-offline) did not start: ${(error as Error).message}`);
  }
  return async () => {
    await api?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    /** Why the shared stack did not start; '' when it did (tests/support/e2e-env.ts). */
    apiStartError: string;
  }
}
