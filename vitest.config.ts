import { defineConfig } from 'vitest/config';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// The layers (docs/testing.md):
// - unit: pure rules, no DynamoDB; the local handler host (scripts/sls) without HTTP. The files of a
//   worker share one module cache (a third of the CPU of loading lib/ again for every file), except
//   `unit-isolated`: the files that mock a module or change the environment get their own;
// - integration: handlers in-process against DynamoDB Local, under the failures the real service
//   has and DynamoDB Local never shows (lib/store/db/fault-injection.ts);
// - integration-own-faults: the files that inject failures themselves, without the random ones;
// - e2e: real HTTP through serverless-offline (and `serverless package`), started by the tests.
//
// One DynamoDB Local serves the whole run (tests/support/dynamo-global-setup.ts). Time limits are
// budgets of quiet-machine time kept by tests/support/load-aware-runner.ts, never fixed wall-clock
// timeouts: vitest's own are off.

/**
 * Files that inject DynamoDB failures themselves to prove what happens AFTER the retries (409, 503):
 * random faults on top would make their exact counts of refused attempts meaningless.
 */
const INJECTS_ITS_OWN_FAULTS = ['tests/integration/votes/transaction-conflicts.test.ts', 'tests/integration/store/retry-policy.test.ts'];

/**
 * The failures injected below the store's retry policy in every other integration file: transaction
 * conflicts, throttling and dropped connections at these rates (each request at most 3 times in a
 * row, so the retries always get through). Most requests see none, so each file exercises the
 * plain path and the retried one; no 5xx, exact tallies and nothing half-written must hold.
 */
export const INTEGRATION_FAULTS = 'conflict=0.1,throttle=0.05,drop=0.02,seed=15';

/**
 * Unit files that replace a module (`vi.mock`) or set the environment a module reads when it loads:
 * they need a module cache of their own. Found by reading the files, so a new one is never missed.
 */
const NEEDS_OWN_MODULES = /\bvi\.(mock|doMock|stubEnv|resetModules)\(|process\.env\.[A-Z_]+ =/;
const unitFilesNeedingOwnModules = readdirSync('tests/unit', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `tests/unit/${file}`)
  .filter((file) => NEEDS_OWN_MODULES.test(readFileSync(file, 'utf8')));

/**
 * Budgets in quiet-machine milliseconds (several times the slowest test of each project on an idle
 * machine; docs/testing.md has the figures). QUIET_STALL_BUDGET_MS bounds a file's hooks.
 */
const budgets = (testMs: number, stallMs: number) => ({ QUIET_TEST_BUDGET_MS: String(testMs), QUIET_STALL_BUDGET_MS: String(stallMs) });

const dynamoProject = {
  globalSetup: ['tests/support/dynamo-global-setup.ts'],
  setupFiles: ['tests/support/integration-env.ts'],
};

export default defineConfig({
  test: {
    runner: './tests/support/load-aware-runner.ts',
    testTimeout: 0,
    hookTimeout: 0,
    // Files run side by side on every core: most of an integration file's time is spent waiting on
    // DynamoDB Local, whose JVM runs beside them.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: unitFilesNeedingOwnModules, isolate: false, env: budgets(30_000, 120_000) },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: unitFilesNeedingOwnModules, env: budgets(30_000, 120_000) },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: INJECTS_ITS_OWN_FAULTS,
          ...dynamoProject,
          env: { ...budgets(60_000, 240_000), DYNAMO_FAULTS: INTEGRATION_FAULTS },
        },
      },
      {
        extends: true,
        test: { name: 'integration-own-faults', include: INJECTS_ITS_OWN_FAULTS, ...dynamoProject, env: budgets(60_000, 240_000) },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/dynamo-global-setup.ts', 'tests/support/offline-global-setup.ts'],
          setupFiles: ['tests/support/integration-env.ts', 'tests/support/e2e-env.ts'],
          env: budgets(120_000, 600_000),
          // One at a time: these files start servers, browsers and `serverless package` of their own.
          fileParallelism: false,
        },
      },
    ],
  },
});
