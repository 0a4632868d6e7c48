/**
 * What the side-by-side run needs to reach both APIs, read once from the environment (or defaults that
 * match the local setup described in docs/benchmarks.md). Nothing of OpenStad lives in this repo: its
 * URL, its admin token, its JWT secret and a `mysql` command line that reaches its database are given.
 */
const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') throw new Error(`${name} is not set (see scripts/bench/openstad/run.ts)`);
  return value;
};
const int = (name: string, fallback: number): number => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number`);
  return n;
};

export interface Settings {
  ours: {
    url: string;
    /** The DynamoDB Local of that `npm start` (its first lines print it): our side is seeded through lib/store. */
    dynamoEndpoint: string;
    /** The JWT_SECRET that `npm start` was given, so tokens minted here verify there. */
    jwtSecret: string;
  };
  theirs: {
    url: string;
    /** One of its `fixed-auth-tokens` mapped to an admin user: creates the sites. */
    adminToken: string;
    /** Its `authorization.jwt-secret`: user JWTs are signed with it, as its auth flow does. */
    jwtSecret: string;
    /** A `mysql` command line (split on spaces) that reaches its database: users, ideas and arguments are bulk-inserted. */
    mysql: string[];
    /** Where its user middleware looks up `/api/userinfo`: written into the sites' oauth config. */
    authServerUrl: string;
    /** A closed local port for the CMS url it pings after a site is created (never a host off this machine). */
    cmsUrl: string;
    commit: string;
  };
  runs: number;
  warmup: number;
  /** Ideas of the large site of the growth cases. */
  largeIdeas: number;
  /** Requests per side in a throughput measurement, and how many are in flight. */
  loadRequests: number;
  inFlight: number;
  out: string;
  howRun: string;
  /** A JSON of both sides' seeded ids and tokens: read when it exists (no seeding), written after seeding otherwise. */
  worlds: string | undefined;
}

export function readSettings(): Settings {
  return {
    ours: {
      url: env('OURS_URL', 'http://127.0.0.1:3000'),
      dynamoEndpoint: env('OURS_DYNAMODB_ENDPOINT', 'http://127.0.0.1:8000'),
      jwtSecret: env('OURS_JWT_SECRET'),
    },
    theirs: {
      url: env('OPENSTAD_URL'),
      adminToken: env('OPENSTAD_TOKEN'),
      jwtSecret: env('OPENSTAD_JWT_SECRET'),
      mysql: env('OPENSTAD_MYSQL', 'mysql openstad').split(' ').filter(Boolean),
      authServerUrl: env('OPENSTAD_AUTH_URL'),
      cmsUrl: env('OPENSTAD_CMS_URL', 'http://127.0.0.1:9'),
      commit: env('OPENSTAD_COMMIT', 'unknown'),
    },
    runs: int('BENCH_RUNS', 60),
    // Steady state on both sides: DynamoDB Local is Java, and its JIT takes thousands of calls to settle
    // (a GET site over HTTP went from ~4 ms to ~2 ms of handler time over the first 3,000 calls);
    // MariaDB is native code. With 10 warm-up calls the small cases measured the emulator's warm-up.
    warmup: int('BENCH_WARMUP', 300),
    largeIdeas: int('BENCH_SCALE_IDEAS', 10_000),
    loadRequests: int('BENCH_LOAD_REQUESTS', 600),
    inFlight: int('BENCH_IN_FLIGHT', 10),
    out: env('BENCH_OUT', 'bench/openstad.json'),
    howRun: process.env.BENCH_HOW ?? '',
    worlds: process.env.BENCH_WORLDS || undefined,
  };
}
