import { defineConfig } from 'vitest/config';

// What Stryker runs against each mutant: the unit tests (pure rules, no DynamoDB), in one project.
export default defineConfig({
  test: { include: ['tests/unit/**/*.test.ts'] },
});
