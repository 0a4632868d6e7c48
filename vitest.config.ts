import { defineConfig } from 'vitest/config';

// Three layers (DESIGN.md habit 12):
// - unit: pure rules, no DynamoDB;
// - integration: handlers in-process against one real DynamoDB Local started by the global setup;
// - e2e: real HTTP through serverless-offline (and `serverless package`), started by the tests.

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
