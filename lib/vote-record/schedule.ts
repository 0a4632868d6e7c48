/**
 * How far the vote record's checkpoints may fall behind: the hourly run, the settle minute and the
 * spread of a run (65 minutes). The alarm `vote-checkpoint-lag` fires above it (resources/operations.yml;
 * tests/e2e/package.test.ts holds the template to this value), and verify-votes reports an entry that
 * no checkpoint holds this long after it was written (lib/vote-record/audit.ts): the record is stalled.
 */
export const CHECKPOINT_LAG_LIMIT_SECONDS = 3900;
