/**
 * How far the vote record's checkpoints may fall behind: the hourly run, the settle minute and the
 * spread of a run (65 minutes). The alarm `vote-checkpoint-lag` fires above it (resources/operations.yml;
 * tests/e2e/package.test.ts holds the template to this value), and verify-votes reports an entry that
 * no checkpoint holds this long after it was written (lib/vote-record/audit.ts): the record is stalled.
 */
export const CHECKPOINT_LAG_LIMIT_SECONDS = 3900;

/**
 * How long before its clock a checkpoint run cuts the log: a write's transaction finishes well within
 * it, so no entry stamped before the cut is still to come.
 */
export const LOG_SETTLE_MS = 60_000;
