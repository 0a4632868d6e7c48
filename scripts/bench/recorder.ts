/**
 * An SDK middleware on the shared DynamoDB client (like tests/support/request-counter.ts) that
 * records every request a call makes: its command, a copy of its input, and when it started and
 * ended. The counts give "DynamoDB requests per call"; the records can be replayed straight through
 * the DocumentClient to time the bare requests a call makes (the latency floor).
 */
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { doc, dynamo } from '#lib/store/db/client';

export interface RecordedRequest {
  /** The low-level command name the SDK reports (`GetItemCommand`). */
  command: string;
  /** The DocumentClient input (plain JS values: the counter sits before marshalling). */
  input: unknown;
  start: number;
  end: number;
  failed: boolean;
  /** Items the answer carried (Query Count, BatchGet responses, GetItem 0/1): what a read cost. */
  items: number;
  /** Bytes of the HTTP answer body (its Content-Length). */
  bytes: number;
  /** Capacity units DynamoDB reports for the request (`ReturnConsumedCapacity: TOTAL`, set by the recorder). */
  readUnits: number;
  writeUnits: number;
}

/** Commands that take `ReturnConsumedCapacity` (every item, query and transaction command). */
const REPORTS_CAPACITY = /^(Get|Put|Update|Delete)ItemCommand$|^(Query|Scan|BatchGetItem|BatchWriteItem|TransactGetItems|TransactWriteItems)Command$/;

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

/** Read and write units of an answer (one ConsumedCapacity, or one per table for batches and transactions). */
function unitsIn(output: unknown, command: string): { read: number; write: number } {
  const reported = (output as { ConsumedCapacity?: Capacity | Capacity[] } | undefined)?.ConsumedCapacity;
  const list = reported === undefined ? [] : Array.isArray(reported) ? reported : [reported];
  const writes = /Put|Update|Delete|Write/.test(command);
  let read = 0;
  let write = 0;
  for (const c of list) {
    read += c.ReadCapacityUnits ?? (writes ? 0 : (c.CapacityUnits ?? 0));
    write += c.WriteCapacityUnits ?? (writes ? (c.CapacityUnits ?? 0) : 0);
  }
  return { read, write };
}

/** Answer sizes, seen in the deserialize step, handed to the same send's initialize middleware. */
const answerBytes = new WeakMap<object, number>();

function itemsIn(output: unknown): number {
  const o = (output ?? {}) as { Count?: number; Item?: unknown; Responses?: unknown };
  if (typeof o.Count === 'number') return o.Count;
  if (o.Item !== undefined) return 1;
  if (o.Responses && typeof o.Responses === 'object' && !Array.isArray(o.Responses)) {
    return Object.values(o.Responses as Record<string, unknown[]>).reduce((n, list) => n + (Array.isArray(list) ? list.length : 0), 0);
  }
  return 0;
}

let active: RecordedRequest[] | undefined;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const into = active;
      if (!into) return next(args);
      const command = String((context as { commandName?: string }).commandName ?? 'unknown');
      const entry: RecordedRequest = {
        command,
        input: cloneInput(args.input),
        start: performance.now(),
        end: Number.NaN,
        failed: false,
        items: 0,
        bytes: 0,
        readUnits: 0,
        writeUnits: 0,
      };
      into.push(entry);
      // What a call costs in capacity, as DynamoDB bills it: asked for on every request.
      if (REPORTS_CAPACITY.test(command)) args = { ...args, input: { ...(args.input as object), ReturnConsumedCapacity: 'TOTAL' } };
      try {
        const out = await next(args);
        entry.items = itemsIn(out.output);
        entry.bytes = answerBytes.get(context) ?? 0;
        const units = unitsIn(out.output, command);
        entry.readUnits = units.read;
        entry.writeUnits = units.write;
        return out;
      } catch (err) {
        entry.failed = true;
        throw err;
      } finally {
        entry.end = performance.now();
      }
    },
    // Initialize runs once per send (retries happen further down), before DocumentMarshall.
    { step: 'initialize', name: 'benchRecorder', priority: 'high' },
  );
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (active) {
        const length = Number((out.response as { headers?: Record<string, string> }).headers?.['content-length']);
        if (Number.isFinite(length)) answerBytes.set(context, length);
      }
      return out;
    },
    { step: 'deserialize', name: 'benchAnswerBytes' },
  );
}

/** Runs `fn`, recording its DynamoDB requests; `ms` is the wall time of `fn` alone. */
export async function record<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; requests: RecordedRequest[] }> {
  install();
  if (active) throw new Error('record() calls must not overlap');
  const requests: RecordedRequest[] = [];
  active = requests;
  try {
    const started = performance.now();
    const result = await fn();
    const ms = performance.now() - started;
    return { result, ms, requests };
  } finally {
    active = undefined;
  }
}

export const itemsRead = (requests: readonly RecordedRequest[]): number => requests.reduce((n, r) => n + r.items, 0);
export const bytesRead = (requests: readonly RecordedRequest[]): number => requests.reduce((n, r) => n + r.bytes, 0);
/** Capacity units of a call (DynamoDB's billing: a transactional write of an item up to 1 KB is 2 units). */
export const readUnits = (requests: readonly RecordedRequest[]): number => Math.round(requests.reduce((n, r) => n + r.readUnits, 0) * 10) / 10;
export const writeUnits = (requests: readonly RecordedRequest[]): number => Math.round(requests.reduce((n, r) => n + r.writeUnits, 0) * 10) / 10;

export function countByCommand(requests: readonly RecordedRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requests) out[r.command] = (out[r.command] ?? 0) + 1;
  return out;
}

type DocCommand = new (input: never) => Parameters<typeof doc.send>[0];
const DOC_COMMANDS: Record<string, DocCommand> = {
  GetItemCommand: GetCommand as unknown as DocCommand,
  PutItemCommand: PutCommand as unknown as DocCommand,
  UpdateItemCommand: UpdateCommand as unknown as DocCommand,
  DeleteItemCommand: DeleteCommand as unknown as DocCommand,
  QueryCommand: QueryCommand as unknown as DocCommand,
  ScanCommand: ScanCommand as unknown as DocCommand,
  BatchGetItemCommand: BatchGetCommand as unknown as DocCommand,
  BatchWriteItemCommand: BatchWriteCommand as unknown as DocCommand,
  TransactGetItemsCommand: TransactGetCommand as unknown as DocCommand,
  TransactWriteItemsCommand: TransactWriteCommand as unknown as DocCommand,
};

/**
 * Sends the recorded requests again, directly through the DocumentClient, with the call's own
 * concurrency: each request starts once every request that had ended before it started (in the
 * recording) has ended in the replay. Requests the call ran in parallel run in parallel; requests it
 * ran one after another (because one needed the other's answer) run one after another. Returns the
 * wall time in milliseconds: the time the call's DynamoDB requests alone take.
 */
export async function replay(requests: readonly RecordedRequest[]): Promise<number> {
  const ordered = [...requests].sort((a, b) => a.start - b.start);
  const commands = ordered.map((r) => {
    const Command = DOC_COMMANDS[r.command];
    if (!Command) throw new Error(`replay: no DocumentClient command for ${r.command}`);
    return { Command, input: cloneInput(r.input) as never };
  });
  const started = performance.now();
  const done: Promise<unknown>[] = [];
  ordered.forEach((r, i) => {
    const before = ordered.map((other, j) => (other.end <= r.start ? done[j] : undefined)).filter((p) => p !== undefined);
    const { Command, input } = commands[i]!;
    const send = () => doc.send(new Command(input));
    done[i] = Promise.all(before).then(() =>
      // A request that failed in the call (a lost condition the call then handled) may fail here too.
      r.failed ? send().catch(() => undefined) : send(),
    );
  });
  await Promise.all(done);
  return performance.now() - started;
}

/**
 * A deep copy of a command input that keeps the DocumentClient's NumberValue instances (a tally's
 * decimal rank): structuredClone would turn them into plain objects, which DynamoDB refuses.
 */
function cloneInput<T>(value: T): T {
  if (value instanceof NumberValue) return value;
  if (Array.isArray(value)) return value.map(cloneInput) as T;
  if (value instanceof Set) return new Set([...value].map(cloneInput)) as T;
  if (value instanceof Uint8Array) return value.slice() as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneInput(v)])) as T;
  }
  return value;
}
