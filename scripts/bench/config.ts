/**
 * Knobs of `npm run bench`, all from the environment so a slow or a fast machine can trade precision
 * for time without editing code. Defaults keep the whole bench under ~5 minutes on 2 cores.
 */
function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

// `local`: `npm start -- --in-memory` start time, memory and reload (scripts/bench/local.ts).
// `anonymize`: users per minute of one anonymize-ended run with a deadline (scripts/bench/anonymize.ts).
// `results`: Equal Shares at city scale and the snapshot read (scripts/bench/results-compute.ts, results-read.ts).
const SECTIONS = ['bundles', 'requests', 'latency', 'scale', 'anonymize', 'results', 'local'] as const;
type Section = (typeof SECTIONS)[number];

function sections(): Set<Section> {
  const raw = process.env.BENCH_ONLY;
  if (!raw) return new Set(SECTIONS);
  const asked = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = asked.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  return new Set(asked as Section[]);
}

export const benchConfig = {
  /** Timed runs per call for the latency figures (each run also replays its DynamoDB requests). */
  runs: intEnv('BENCH_RUNS', 30),
  /** Untimed runs before those (JIT, connection pool, DynamoDB Local's own warm-up). */
  warmup: intEnv('BENCH_WARMUP', 5, 0),
  /** Fresh `node` processes per bundle for the module-load time. */
  loadRuns: intEnv('BENCH_LOAD_RUNS', 5),
  /** Ideas of the large site of the scale section (the small one has 100). */
  scaleIdeas: intEnv('BENCH_SCALE_IDEAS', 10_000, 100),
  /** Users of the anonymize section's site, and the run's working window in seconds. */
  anonymizeUsers: intEnv('BENCH_ANONYMIZE_USERS', 3_000, 10),
  anonymizeSeconds: intEnv('BENCH_ANONYMIZE_SECONDS', 20),
  /** Starts of `npm start -- --in-memory` in the local section (the median is reported). */
  localRuns: intEnv('BENCH_LOCAL_RUNS', 3),
  /** Where results go (the committed file by default). */
  out: process.env.BENCH_OUT ?? 'bench/results.json',
  sections: sections(),
};

/** Targets of bundle size and load time vs the floor; latency vs the bare requests. */
export const TARGETS = {
  bundleRatio: 1.5,
  latencyRatio: 1.3,
} as const;
