/**
 * Times one call many times, in-process against DynamoDB Local, next to its floor: after each run,
 * the DynamoDB requests the run made are replayed straight through the DocumentClient (with the
 * run's own concurrency, see recorder.ts), so both figures see the same table, the same DynamoDB
 * Local and the same machine load at nearly the same moment. A call that writes gets `before` /
 * `reset` hooks that put the table back between the run and its replay, so the replayed writes
 * meet the state the run met (a conditional Put would otherwise fail on the item the run created).
 */
import { TARGETS } from './config.ts';
import { expectStatus, type CallResult } from '../lambda-call.ts';
import { bytesRead, countByCommand, itemsRead, record, replay, type RecordedRequest } from './recorder.ts';
import { median, ratio, round, summarize, type Summary } from './stats.ts';

export interface TimedCase<S = unknown> {
  name: string;
  endpoint: string;
  run: () => Promise<CallResult>;
  status: number;
  /** Untimed, before each run: a snapshot for `reset`. */
  before?: () => Promise<S>;
  /** Untimed, between the run and its replay: undo the run's writes (`requests`: what the run sent). */
  // Method syntax: a case of any snapshot type is a TimedCase<unknown> (parameters compared bivariantly).
  reset?(state: S, result: CallResult, requests: readonly RecordedRequest[]): Promise<void>;
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

interface Samples {
  handler: number[];
  floor: number[];
  pairs: number[];
  counts: number[];
  items: number[];
  bytes: number[];
  last: RecordedRequest[];
}

/** One run of a case and the replay of its requests. */
async function runOnce<S>(c: TimedCase<S>): Promise<{ ms: number; replayMs: number; requests: RecordedRequest[] }> {
  const state = (await c.before?.()) as S;
  const { result, ms, requests } = await record(c.run);
  expectStatus(result, c.status, c.name);
  await c.reset?.(state, result, requests);
  return { ms, replayMs: await replay(requests), requests };
}

/**
 * Times several cases in turn, run by run (case A run 1, case B run 1, case A run 2 ...), so that
 * cases compared with each other see the same stretches of machine load. `handlerMs[i]` are the raw
 * handler times of case i, in run order, for paired comparisons between cases.
 */
export async function timeCases(cases: TimedCase<unknown>[], runs: number, warmup: number): Promise<{ results: TimedResult[]; handlerMs: number[][] }> {
  const samples: Samples[] = cases.map(() => ({ handler: [], floor: [], pairs: [], counts: [], items: [], bytes: [], last: [] }));
  for (let i = 0; i < warmup + runs; i++) {
    for (const [k, c] of cases.entries()) {
      const { ms, replayMs, requests } = await runOnce(c);
      if (i < warmup) continue;
      const s = samples[k]!;
      s.handler.push(ms);
      s.floor.push(replayMs);
      s.pairs.push(ms / replayMs);
      s.counts.push(requests.length);
      s.items.push(itemsRead(requests));
      s.bytes.push(bytesRead(requests));
      s.last = requests;
    }
  }
  return { results: cases.map((c, k) => summarizeCase(c, samples[k]!)), handlerMs: samples.map((s) => s.handler) };
}

export async function timeCase<S>(c: TimedCase<S>, runs: number, warmup: number): Promise<TimedResult> {
  return (await timeCases([c], runs, warmup)).results[0]!;
}

function summarizeCase(c: TimedCase<unknown>, s: Samples): TimedResult {
  const h = summarize(s.handler);
  const f = summarize(s.floor);
  const r = round(median(s.pairs));
  return {
    name: c.name,
    endpoint: c.endpoint,
    requests: { min: Math.min(...s.counts), max: Math.max(...s.counts) },
    itemsRead: median(s.items),
    bytesRead: median(s.bytes),
    commands: countByCommand(s.last),
    lastRun: [...s.last]
      .sort((a, b) => a.start - b.start)
      .map((q) => ({ command: q.command, ms: Math.round((q.end - q.start) * 100) / 100, items: q.items, bytes: q.bytes })),
    handler: h,
    floor: f,
    ratio: r,
    ratioOfMedians: ratio(h.median, f.median),
    p95Ratio: ratio(h.p95, f.p95),
    overheadMs: Math.round((h.median - f.median) * 100) / 100,
    violation: r > TARGETS.latencyRatio ? `${c.name}: ${r}x its DynamoDB floor (target ${TARGETS.latencyRatio}x)` : null,
  };
}
