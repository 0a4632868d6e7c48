/**
 * What a Lambda function may do, by access class (least privilege, DESIGN habit 20). Each route
 * declares its class once (lib/routes/<resource>/<action>.ts `dataAccess`); the scheduled jobs are
 * the `job` class. Everything else reads this map: scripts/routes writes one IAM role per class and
 * each function's `role` from it (functions/access-roles.yml, functions/<resource>/functions.yml),
 * apiHandler loads secrets only for a class that reads them, the integration tests fail a handler
 * whose store calls leave its class (tests/support/access-check.ts), and the package test compares
 * the compiled roles with it.
 *
 * Transactions need no action of their own: each item is authorised as its
 * Put/Update/Delete/ConditionCheck. Indexes are only ever queried. No class may Scan.
 */
import type { SecretName } from '#lib/config/secret-values';

export type DynamoAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

interface AccessClassGrant {
  /** One line: who is in the class. */
  description: string;
  /** DynamoDB actions on the table (Query also on its indexes). */
  table: readonly DynamoAction[];
  /**
   * The secrets it reads (lib/config/secret-values.ts): IAM grants exactly these parameters, and the
   * function fetches exactly these (one GetParameters call). A class with `tokenKeys` verifies tokens.
   */
  secrets: readonly SecretName[];
  /** Sends to the jobs' dead-letter queue (the failure destination of an async invocation). */
  deadLetters: boolean;
}

/** What every class that verifies tokens reads: the token keys, the derived keys' root, the service tokens. */
const CALLER: readonly SecretName[] = ['tokenKeys', 'serverKey', 'serviceTokens'];

const READS: readonly DynamoAction[] = ['GetItem', 'BatchGetItem', 'Query'];
const WRITES: readonly DynamoAction[] = [...READS, 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'];

export const ACCESS_CLASSES = {
  static: { description: 'serves fixed content: no table, no secrets', table: [], secrets: [], deadLetters: false },
  probe: { description: 'the health check and the catch-all (a preflight or Basic Auth reads the site): GetItem, no secrets', table: ['GetItem'], secrets: [], deadLetters: false },
  /** The vote record's public key: the public half only, so the route that publishes it cannot sign. */
  publicKey: { description: 'publishes the vote record public key: no table, the public key only', table: [], secrets: ['votePublicKey'], deadLetters: false },
  read: { description: 'reads the table, verifies tokens', table: READS, secrets: CALLER, deadLetters: false },
  /** The unauthenticated doors that count requests per address (lib/http/rate-limit.ts): reads + one UpdateItem. */
  door: { description: 'a rate-limited door: reads, counts requests (UpdateItem), verifies and issues tokens', table: [...READS, 'UpdateItem'], secrets: CALLER, deadLetters: false },
  write: { description: 'reads and writes items, verifies tokens', table: WRITES, secrets: CALLER, deadLetters: false },
  /** The writes that append to the vote log (lib/vote-record/entry.ts): they seal entries with the chain key. */
  ballot: { description: 'writes ballots: write, and seals vote log entries (the chain key)', table: WRITES, secrets: [...CALLER, 'voteChainKey'], deadLetters: false },
  job: { description: 'a scheduled job: reads and writes items, seals vote log entries, failures to the dead-letter queue', table: WRITES, secrets: [...CALLER, 'voteChainKey'], deadLetters: true },
  /** The vote-checkpoints job alone signs checkpoints. */
  checkpoint: { description: 'the vote-checkpoints job: a job that also signs checkpoints (the signing key)', table: WRITES, secrets: [...CALLER, 'voteChainKey', 'voteSigningKey'], deadLetters: true },
} as const satisfies Record<string, AccessClassGrant>;

export type AccessClass = keyof typeof ACCESS_CLASSES;

/** The CloudFormation logical id of a class's IAM role. */
export const roleLogicalId = (accessClass: AccessClass): string => `AccessRole${accessClass[0]!.toUpperCase()}${accessClass.slice(1)}`;
