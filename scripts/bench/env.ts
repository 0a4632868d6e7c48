/**
 * The process environment of the in-process sections, set before any lib module reads it (lib
 * reads the environment once, at first import): the bench's own DynamoDB Local and table, a local
 * stage, a service token, and request logs off (their cost on Lambda is a line to stdout; here they
 * would bury the tables).
 */
export const SERVICE_TOKEN = 'bench-service-token-aaaaaaaaaaaaaaaa';

export function setBenchEnv(endpoint: string): void {
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = `participation-bench-${process.pid}`;
  process.env.STAGE = 'local';
  process.env.AWS_REGION = 'eu-west-1';
  process.env.API_SERVICE_TOKENS = SERVICE_TOKEN;
  process.env.JWT_SECRET = 'bench-jwt-secret-that-is-long-enough-0123456789';
  process.env.LOG_LEVEL = 'SILENT';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
}
