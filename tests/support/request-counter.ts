/**
 * Counts DynamoDB requests made through the shared client (an SDK middleware), so tests can prove
 * that an endpoint's cost is constant and not one request per record.
 */
import { dynamo } from '#lib/store/db/client';

let count = 0;
let scanned = 0;
const byCommand = new Map<string, number>();
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      count++;
      const name = String((context as { commandName?: string }).commandName ?? 'unknown');
      byCommand.set(name, (byCommand.get(name) ?? 0) + 1);
      const answer = await next(args);
      // What a Query or Scan read (before any filter): the items a range costs, not only those kept.
      scanned += Number((answer.output as { ScannedCount?: number }).ScannedCount ?? 0);
      return answer;
    },
    // High: outside the store's retry policy, so a call's requests are counted as the code makes them.
    { step: 'initialize', name: 'testRequestCounter', priority: 'high' },
  );
}

/** Runs `fn` and returns how many DynamoDB requests it made (and which), and the items its Queries read. */
export async function countRequests<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; requests: number; commands: Record<string, number>; queryItemsRead: number }> {
  install();
  count = 0;
  scanned = 0;
  byCommand.clear();
  const result = await fn();
  return { result, requests: count, commands: Object.fromEntries(byCommand), queryItemsRead: scanned };
}
