/**
 * Least privilege, checked against what the code does: while an integration test invokes a handler
 * (tests/support/invoke.ts), every DynamoDB request it sends is matched against the IAM actions of
 * the handler's access class (lib/config/access-classes.ts, the same map its deployed role is written
 * from). A request outside the class is recorded and fails the test that made it (the setup file's
 * afterEach), naming the function's class and the action: the route's `dataAccess` is wrong, or the
 * code path needs a grant the role lacks.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ACCESS_CLASSES, type AccessClass, type DynamoAction } from '#lib/config/access-classes';

interface Scope {
  accessClass: AccessClass;
  label: string;
}

const scope = new AsyncLocalStorage<Scope>();
const violations: string[] = [];

const ITEM_KINDS: Record<string, DynamoAction> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };
const BY_COMMAND: Record<string, DynamoAction> = {
  Get: 'GetItem',
  GetItem: 'GetItem',
  Put: 'PutItem',
  PutItem: 'PutItem',
  Update: 'UpdateItem',
  UpdateItem: 'UpdateItem',
  Delete: 'DeleteItem',
  DeleteItem: 'DeleteItem',
  Query: 'Query',
  BatchGet: 'BatchGetItem',
  BatchGetItem: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  BatchWriteItem: 'BatchWriteItem',
  TransactGet: 'GetItem',
  TransactGetItems: 'GetItem',
};

/** The IAM actions a request needs (a transaction: one per item kind it carries). */
function actionsOf(commandName: string, input: unknown): string[] {
  const name = commandName.replace(/Command$/, '');
  if (name === 'TransactWrite' || name === 'TransactWriteItems') {
    const items = ((input as { TransactItems?: Record<string, unknown>[] }).TransactItems ?? []);
    return [...new Set(items.flatMap((item) => Object.keys(item).map((kind) => ITEM_KINDS[kind] ?? kind)))];
  }
  return [BY_COMMAND[name] ?? name];
}

/**
 * Runs `run` outside any handler's check: what a test itself writes while a handler runs (a race it
 * stages from inside a request) is the test's doing, not the handler's.
 */
export const outsideAccessCheck = <T>(run: () => Promise<T>): Promise<T> => scope.exit(run);

/** Runs a handler call as a function of `accessClass`; its DynamoDB requests are checked. */
export const asAccessClass = <T>(accessClass: AccessClass, label: string, run: () => Promise<T>): Promise<T> => scope.run({ accessClass, label }, run);

interface MiddlewareStack {
  add(middleware: (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) => (args: { input: unknown }) => Promise<unknown>, options: { step: 'initialize'; name: string; priority: 'high' }): void;
}

export function installAccessCheck(stack: MiddlewareStack): void {
  stack.add(
    (next, context) => async (args) => {
      const current = scope.getStore();
      if (current) {
        const granted = ACCESS_CLASSES[current.accessClass].table as readonly string[];
        for (const action of actionsOf(String(context.commandName ?? 'unknown'), args.input)) {
          if (!granted.includes(action)) violations.push(`${current.label} (access class ${current.accessClass}) sent dynamodb:${action}, which its role does not grant`);
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'accessClassCheck', priority: 'high' },
  );
}

/** The violations recorded since the last call (and forgets them). */
export function takeViolations(): string[] {
  return violations.splice(0);
}
