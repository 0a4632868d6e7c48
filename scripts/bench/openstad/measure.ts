/**
 * The timing loops. Latency: warm-up calls on both sides, then `runs` rounds of one call per side, the
 * side that goes first swapped every round, so whatever else the two shared cores do falls on both
 * alike. Throughput: `inFlight` workers on one side at a time, in the order ours, theirs, theirs, ours.
 * A side whose calls fail under load is reported with its error, not with a figure.
 */
import { send } from './http.ts';
import { SIDES, type Case, type Side } from './cases.ts';

type Bases = Record<Side, string>;

interface Timed {
  samples: Record<Side, number[]>;
  /** Size of the last answer of each side (the two APIs' records differ in what fields they carry). */
  bytes: Record<Side, number>;
}

export async function timeInterleaved(c: Case, bases: Bases, runs: number, warmup: number): Promise<Timed> {
  const samples: Record<Side, number[]> = { ours: [], theirs: [] };
  const bytes: Record<Side, number> = { ours: 0, theirs: 0 };
  for (let i = 0; i < warmup + runs; i++) {
    const roundStart = performance.now();
    const order = i % 2 ? [...SIDES].reverse() : SIDES;
    for (const side of order) {
      const { ms, text } = await send(bases[side], c.next(side));
      if (i >= warmup) samples[side].push(ms);
      bytes[side] = Buffer.byteLength(text);
    }
    const rest = (c.pauseMs ?? 0) - (performance.now() - roundStart);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
  return { samples, bytes };
}

/** `total` calls of the case on one side with `inFlight` in flight; returns requests per second. */
async function load(c: Case, side: Side, base: string, total: number, inFlight: number): Promise<{ requests: number; seconds: number }> {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await send(base, c.next(side));
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { requests: total, seconds: (performance.now() - t0) / 1000 };
}

export async function throughput(c: Case, bases: Bases, total: number, inFlight: number): Promise<Record<Side, number | string>> {
  const sum: Record<Side, { requests: number; seconds: number }> = { ours: { requests: 0, seconds: 0 }, theirs: { requests: 0, seconds: 0 } };
  // Warm-up, not counted, ramped one more in flight at a time: the local stack once started a worker
  // thread per concurrent request, and ten cold imports at once on two cores failed; kept so both
  // sides warm up alike.
  const failed: Partial<Record<Side, string>> = {};
  const attempt = async (side: Side, run: () => Promise<{ requests: number; seconds: number }>) => {
    if (failed[side]) return;
    try {
      const part = await run();
      sum[side].requests += part.requests;
      sum[side].seconds += part.seconds;
    } catch (err) {
      failed[side] = (err as Error).message.slice(0, 300);
    }
  };
  for (const side of SIDES) for (let k = 1; k <= inFlight; k++) await attempt(side, () => load(c, side, bases[side], k * 2, k));
  for (const side of SIDES) sum[side] = { requests: 0, seconds: 0 };
  for (const side of ['ours', 'theirs', 'theirs', 'ours'] as const) await attempt(side, () => load(c, side, bases[side], Math.ceil(total / 2), inFlight));
  const rate = (side: Side) => failed[side] ?? sum[side].requests / sum[side].seconds;
  return { ours: rate('ours'), theirs: rate('theirs') };
}
