/**
 * The shared local stack did not start (tests/support/offline-global-setup.ts): each e2e file that
 * uses it (`inject('apiUrl')`) fails, saying why; the files that start what they need themselves
 * (`npm start`, `serverless package`, the deploy guard) run on.
 */
import { beforeAll, inject } from 'vitest';
import { readFileSync } from 'node:fs';

const startError = inject('apiStartError');
if (startError) {
  // (A setup file's hook belongs to the test file.)
  beforeAll((_context, suite) => {
    if (readFileSync(suite.file.filepath, 'utf8').includes("inject('apiUrl')")) throw new Error(startError);
  });
}
