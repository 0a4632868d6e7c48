/**
 * The local stack of `npm start`, as the one-off scripts (job, verify-votes, seed, migrate) reach it:
 * its table and its DynamoDB endpoint. Set before any module of lib/ reads the environment (lib/ is
 * imported dynamically after this runs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The table `npm start` serves (serverless.yml names the local stage's table so). */
export const LOCAL_TABLE_NAME = 'participation-api-local';

/** The endpoint of the running npm start: DYNAMODB_ENDPOINT, else the one in its data lock (.data/lock). */
export function runningEndpoint(): string | undefined {
  if (process.env.DYNAMODB_ENDPOINT) return process.env.DYNAMODB_ENDPOINT;
  const lock = `${process.env.LOCAL_DATA_DIR || fileURLToPath(new URL('../.data', import.meta.url))}/lock`;
  if (!existsSync(lock)) return undefined;
  return (JSON.parse(readFileSync(lock, 'utf8')) as { dynamoEndpoint?: string }).dynamoEndpoint;
}

/**
 * Points this process at the local stack, keeping whatever the shell set. With another TABLE_NAME (a
 * deployed stage's table, run with AWS credentials) no local endpoint is set: the SDK finds AWS's.
 */
export function useLocalStackEnv(): void {
  process.env.STAGE ??= 'local';
  process.env.TABLE_NAME ??= LOCAL_TABLE_NAME;
  if (process.env.TABLE_NAME === LOCAL_TABLE_NAME) process.env.DYNAMODB_ENDPOINT ??= runningEndpoint() ?? 'http://127.0.0.1:8000';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.LOG_LEVEL ??= 'WARN';
}
