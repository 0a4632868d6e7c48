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
export type DynamoAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

export interface AccessClassGrant {
  /** One line: who is in the class. */
  description: string;
  /** DynamoDB actions on the table (Query also on its indexes). */
  table: readonly DynamoAction[];
  /** Reads the secret store (token keys, service tokens, the server key). */
  secrets: boolean;
  /** Sends to the jobs' dead-letter queue (the failure destination of an async invocation). */
  deadLetters: boolean;
}

const READS: readonly DynamoAction[] = ['GetItem', 'BatchGetItem', 'Query'];
const WRITES: readonly DynamoAction[] = [...READS, 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'];

export const ACCESS_CLASSES = {
  static: { description: 'serves fixed content: no table, no secrets', table: [], secrets: false, deadLetters: false },
  probe: { description: 'the health check and the catch-all (a preflight or Basic Auth reads the site): GetItem, no secrets', table: ['GetItem'], secrets: false, deadLetters: false },
  read: { description: 'reads the table, verifies tokens', table: READS, secrets: true, deadLetters: false },
  /** The unauthenticated doors that count requests per address (lib/http/rate-limit.ts): reads + one UpdateItem. */
  door: { description: 'a rate-limited door: reads, counts requests (UpdateItem), verifies and issues tokens', table: [...READS, 'UpdateItem'], secrets: true, deadLetters: false },
  write: { description: 'reads and writes items, verifies tokens', table: WRITES, secrets: true, deadLetters: false },
  job: { description: 'a scheduled job: reads and writes items, reads secrets, failures to the dead-letter queue', table: WRITES, secrets: true, deadLetters: true },
} as const satisfies Record<string, AccessClassGrant>;

export type AccessClass = keyof typeof ACCESS_CLASSES;

/** The CloudFormation logical id of a class's IAM role. */
export const roleLogicalId = (accessClass: AccessClass): string => `AccessRole${accessClass[0]!.toUpperCase()}${accessClass.slice(1)}`;
