/**
 * The local stack of `npm start`, as the one-off scripts (job, verify-votes, seed, migrate) reach it:
 * its table and its DynamoDB endpoint. DYNAMODB_ENDPOINT wins when it is set; otherwise the scripts
 * use the stack a running `npm start` recorded (scripts/start/running-stacks.ts, in-memory runs
 * included) and refuse, saying why, when none runs or several do: a script must never quietly
 * talk to another database than the one the developer is looking at. Set before any module of lib/
 * reads the environment (lib/ is imported dynamically after this runs).
 */
import { runningStacks, dataRoot, type RunningStack } from './start/running-stacks.ts';

/** The table `npm start` serves (serverless.yml names the local stage's table so). */
export const LOCAL_TABLE_NAME = 'participation-api-local';

/** No local stack to use (none runs, or several do): the script stops with this message, exit 1. */
export class NoLocalStackError extends Error {}

interface LocalStackChoice {
  endpoint: string;
  /** Where the endpoint came from, for the line the script prints. */
  source: string;
}

const describeStack = (s: RunningStack) => `npm start pid ${s.pid} (${s.apiUrl}, ${s.inMemory ? 'in memory' : 'data kept'}, DynamoDB ${s.dynamoEndpoint})`;

/** DYNAMODB_ENDPOINT, else the one running npm start; throws NoLocalStackError otherwise. */
function localStackEndpoint(): LocalStackChoice {
  if (process.env.DYNAMODB_ENDPOINT) return { endpoint: process.env.DYNAMODB_ENDPOINT, source: 'DYNAMODB_ENDPOINT' };
  const stacks = runningStacks();
  if (stacks.length === 1) return { endpoint: stacks[0]!.dynamoEndpoint, source: describeStack(stacks[0]!) };
  if (stacks.length === 0) {
    throw new NoLocalStackError(
      `No local stack is running (no npm start has recorded itself in ${dataRoot()}/stacks). ` +
        'Start one with `npm start` (or `npm start -- --in-memory`) in another terminal, or set DYNAMODB_ENDPOINT to the DynamoDB to use.',
    );
  }
  throw new NoLocalStackError(
    `${stacks.length} local stacks are running:\n${stacks.map((s) => `  ${describeStack(s)}`).join('\n')}\n` +
      'Choose one with DYNAMODB_ENDPOINT, e.g. DYNAMODB_ENDPOINT=' + stacks[0]!.dynamoEndpoint + ' npm run ...',
  );
}

/**
 * Points this process at the local stack, keeping whatever the shell set. With another TABLE_NAME (a
 * deployed stage's table, run with AWS credentials) no local endpoint is set: the SDK finds AWS's.
 * Returns the choice made (undefined for such a table); throws NoLocalStackError.
 */
export function useLocalStackEnv(): LocalStackChoice | undefined {
  process.env.STAGE ??= 'local';
  process.env.TABLE_NAME ??= LOCAL_TABLE_NAME;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.LOG_LEVEL ??= 'WARN';
  if (process.env.TABLE_NAME !== LOCAL_TABLE_NAME) return undefined;
  const choice = localStackEndpoint();
  process.env.DYNAMODB_ENDPOINT = choice.endpoint;
  return choice;
}
