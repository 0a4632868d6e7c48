/**
 * Times one call many times, in-process against DynamoDB Local, next to its floor: after each run,
 * the DynamoDB requests the run made are replayed straight through the DocumentClient (with the
 * run's own concurrency, see recorder.ts), so both figures see the same table, the same DynamoDB
 * Local and the same machine load at nearly the same moment. A call that writes gets `before` /
 * `reset` hooks that put the table back between the run and its replay, so the replayed writes
 * meet the state the run met (a conditional Put would otherwise fail on the item the run created).
 */
import { TARGETS } from './config.ts';
import { expectStatus, type CallResult } from './invoke.ts';
import { bytesRead, countByCommand, itemsRead, record, replay, type RecordedRequest } from './recorder.ts';
import { median, ratio, round, summarize, type Summary } from './stats.ts';

export interface TimedCase<S = unknown> {
  name: string;
  endpoint: string;
  run: () => Promise<CallResult>;
  status: number;
  /** Untimed, before each run: a snapshot for `reset`. */
  before?: () => Promise<S>;
  /** Untimed, between the run and its replay: undo the run's writes. */
  reset?: (state: S, result: CallResult) => Promise<void>;
}

export interface TimedResult {
  name: string;
  endpoint: string;
  /** DynamoDB requests per run (min and max over the runs; equal unless a call retried). */
  requests: { min: number; max: number };
  /** Items the call's requests returned (median over the runs): how much it read. */
  itemsRead: number;
  /** Bytes of the answers to those requests (median over the runs). */
  bytesRead: number;
  /** Requests per command, of the last run. */
  commands: Record<string, number>;
  /** Each request of the last run in start order: where the time and the bytes go. */
  lastRun: Array<{ command: string; ms: number; items: number; bytes: number }>;
  /** Milliseconds of the handler call. */
  handler: Summary;
  /** Milliseconds of the same DynamoDB requests, replayed alone. */
  floor: Summary;
  /**
   * handler / floor: the median over the runs of each run's ratio to its own replay (a run and its
   * replay see the same moment's machine load), and the ratio of the medians and of the p95s.
   */
  ratio: number;
  ratioOfMedians: number;
  p95Ratio: number;
  /** Milliseconds the handler spends beyond its requests (median difference). */
  overheadMs: number;
  violation: string | null;
}

export async function timeCase<S>(c: TimedCase<S>, runs: number, warmup: number): Promise<TimedResult> {
  const handler: number[] = [];
  const floor: number[] = [];
  const pairs: number[] = [];
  const counts: number[] = [];
  const items: number[] = [];
  const bytes: number[] = [];
  let last: RecordedRequest[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const state = (await c.before?.()) as S;
    const { result, ms, requests } = await record(c.run);
    expectStatus(result, c.status, c.name);
    await c.reset?.(state, result);
    const replayMs = await replay(requests);
    if (i < warmup) continue;
    handler.push(ms);
    floor.push(replayMs);
    pairs.push(ms / replayMs);
    counts.push(requests.length);
    items.push(itemsRead(requests));
    bytes.push(bytesRead(requests));
    last = requests;
  }
  const h = summarize(handler);
  const f = summarize(floor);
  const r = round(median(pairs));
  return {
    name: c.name,
    endpoint: c.endpoint,
    requests: { min: Math.min(...counts), max: Math.max(...counts) },
    itemsRead: median(items),
    bytesRead: median(bytes),
    commands: countByCommand(last),
    lastRun: [...last]
      .sort((a, b) => a.start - b.start)
      .map((r) => ({ command: r.command, ms: Math.round((r.end - r.start) * 100) / 100, items: r.items, bytes: r.bytes })),
    handler: h,
    floor: f,
    ratio: r,
    ratioOfMedians: ratio(h.median, f.median),
    p95Ratio: ratio(h.p95, f.p95),
    overheadMs: Math.round((h.median - f.median) * 100) / 100,
    violation: r > TARGETS.latencyRatio ? `${c.name}: ${r}x its DynamoDB floor (target ${TARGETS.latencyRatio}x)` : null,
  };
}
