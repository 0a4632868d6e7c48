import { defineConfig } from 'vitest/config';

// Three layers (DESIGN.md habit 12):
// - unit: pure rules, no DynamoDB;
// - integration: handlers in-process against one real DynamoDB Local started by the global setup;
// - e2e: real HTTP through serverless-offline (and `serverless package`), started by the tests.

/**
 * Files that inject DynamoDB failures themselves to prove what happens AFTER the retries (409, 503):
 * random faults on top would make their exact counts of refused attempts meaningless.
 */
const INJECTS_ITS_OWN_FAULTS = [
  'tests/integration/votes/transaction-conflicts.test.ts',
  'tests/integration/store/retry-policy.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/dynamo-global-setup.ts'],
          setupFiles: ['tests/support/integration-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Issue 15: the integration suite again, against a DynamoDB that fails as the service does
        // (lib/store/db/fault-injection.ts): conflicts, throttling and dropped connections at these rates.
        // Zero 5xx, exact tallies and nothing half-written must hold through the store's retry policy.
        extends: true,
        test: {
          name: 'integration-faults',
          include: ['tests/integration/**/*.test.ts'],
          exclude: INJECTS_ITS_OWN_FAULTS,
          globalSetup: ['tests/support/dynamo-global-setup.ts'],
          setupFiles: ['tests/support/integration-env.ts'],
          env: { DYNAMO_FAULTS: 'conflict=0.1,throttle=0.05,drop=0.02,seed=15' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/dynamo-global-setup.ts', 'tests/support/offline-global-setup.ts'],
          setupFiles: ['tests/support/integration-env.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
