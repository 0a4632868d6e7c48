/**
 * The scheduled jobs of the site lifecycle (CONTRACT "Decided details, lifecycle"): their names are
 * what `npm run job -- <name>` takes and what the job markers (lib/store/jobs/jobs.ts) are keyed by.
 */
export const JOB_NAMES = [
  'end-projects',
  'close-ideas',
  'anonymize-ended',
  'anonymize-inactive',
  // The vote record's signed checkpoints (docs/results.md).
  'vote-checkpoints',
  // Results snapshots, recomputed when ballots changed (docs/results.md "Results snapshots").
  'results',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

export const isJobName = (value: string): value is JobName => (JOB_NAMES as readonly string[]).includes(value);
