/**
 * Counts the keys read by GetItem and BatchGet (and how many strongly consistently) while `fn` runs:
 * what a request reads before its checks refuse it (the attack suites' bound on refused requests).
 */
import { dynamo } from '#lib/store/db/client';

type ReadInput = { RequestItems?: Record<string, { Keys: unknown[]; ConsistentRead?: boolean }>; ConsistentRead?: boolean };

export async function keysRead<T>(fn: () => Promise<T>): Promise<{ result: T; keys: number; consistent: number }> {
  const name = 'testKeysRead';
  let read = 0;
  let consistent = 0;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName;
      const input = (args as { input?: ReadInput }).input ?? {};
      if (command === 'BatchGetItemCommand') {
        for (const table of Object.values(input.RequestItems ?? {})) {
          read += table.Keys.length;
          if (table.ConsistentRead) consistent += table.Keys.length;
        }
      }
      if (command === 'GetItemCommand') {
        read++;
        if (input.ConsistentRead) consistent++;
      }
      return next(args);
    },
    // High: the keys as the code asks for them, before any retry.
    { step: 'initialize', name, priority: 'high' },
  );
  try {
    return { result: await fn(), keys: read, consistent };
  } finally {
    dynamo.middlewareStack.remove(name);
  }
}
