/** Seconds between two rounds of the local job loop (scripts/job-loop.ts): JOBS_INTERVAL_SECONDS, default 60. */
export function jobIntervalSeconds(): number {
  const fromEnv = Number(process.env.JOBS_INTERVAL_SECONDS);
  return fromEnv > 0 ? fromEnv : 60;
}
