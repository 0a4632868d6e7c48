/**
 * Points lib/ at the table and DynamoDB Local of the running `npm start`, with its JWT secret. Must run
 * before anything imports lib/ (it reads the environment once), so this file imports nothing of it.
 */
import type { Settings } from './settings.ts';

export function useOurStack(ours: Settings['ours']): void {
  process.env.DYNAMODB_ENDPOINT = ours.dynamoEndpoint;
  process.env.TABLE_NAME = 'participation-api-local';
  process.env.STAGE = 'local';
  process.env.JWT_SECRET = ours.jwtSecret;
  process.env.LOG_LEVEL = 'SILENT';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
}
