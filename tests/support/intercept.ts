/**
 * Deterministic interleavings for attack tests: run a concurrent writer just before a chosen DynamoDB
 * command of the code under test is sent.
 */
import { afterEach } from 'vitest';
import { dynamo } from '#lib/store/db/client';

export type Sent = { commandName: string; input: unknown };

const INTERCEPT = 'testOnceBeforeIntercept';
afterEach(() => {
  dynamo.middlewareStack.remove(INTERCEPT);
});

/**
 * Runs `before` once, just before the first DynamoDB command that `matches` is sent (its own commands
 * pass untouched). Removed after each test. Returns whether it fired.
 */
export function onceBefore(matches: (sent: Sent) => boolean, before: (sent: Sent) => Promise<void>): () => boolean {
  let fired = false;
  let running = false;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const sent = { commandName: String((context as { commandName?: string }).commandName), input: (args as { input?: unknown }).input };
      if (!fired && !running && matches(sent)) {
        running = true;
        try {
          await before(sent);
        } finally {
          running = false;
          fired = true;
        }
      }
      return next(args);
    },
    { step: 'initialize', name: INTERCEPT, priority: 'high' },
  );
  return () => fired;
}

type Keyed = { Key?: { SK?: unknown } };
/** The tally SKs (`IDEA#<id>#TALLY`) a TransactWriteItems input touches. */
export const tallySks = (input: unknown): string[] =>
  ((input as { TransactItems?: Array<{ Update?: Keyed; ConditionCheck?: Keyed }> } | undefined)?.TransactItems ?? [])
    .map((item) => (item.Update ?? item.ConditionCheck)?.Key?.SK)
    .filter((sk): sk is string => typeof sk === 'string' && sk.endsWith('#TALLY'));
