/**
 * Points the code under test at the run's DynamoDB Local before any module reads the environment.
 */
import { afterEach, beforeAll, inject } from 'vitest';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from './test-secrets.ts';

// DynamoDB Local did not start (tests/support/dynamo-global-setup.ts): each file of this project
// fails, saying why; the other projects run on.
const startError = inject('layerStartError');
if (startError) {
  beforeAll(() => {
    throw new Error(startError);
  });
}

process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.STAGE = 'test';
process.env.API_SERVICE_TOKENS = TEST_SERVICE_TOKENS;
process.env.JWT_SECRET = TEST_JWT_SECRET;

// Least privilege against the real code paths: a handler's DynamoDB request outside its access
// class fails the test that made it (tests/support/access-check.ts; installed by the first invoke, so
// no lib module is loaded here before a test file sets its environment).
const { takeViolations } = await import('./access-check.ts');
afterEach(() => {
  const violations = takeViolations();
  if (violations.length) throw new Error(`requests outside the access class:\n${[...new Set(violations)].join('\n')}`);
});
