import { defineConfig } from 'vitest/config';

// What Stryker runs against each mutant: the unit tests (pure rules, no DynamoDB), in one project.
// No vitest time limits (as in vitest.config.ts): on a loaded machine a slow test would fail and count
// its mutant as killed. A mutant that never ends is Stryker's to catch (`timeoutMS` in stryker.config.json).
export default defineConfig({
  test: { include: ['tests/unit/**/*.test.ts'], testTimeout: 0, hookTimeout: 0 },
});
