/**
 * Points the code under test at the run's DynamoDB Local before any module reads the environment.
 */
import { inject } from 'vitest';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKENS } from './test-secrets.ts';

process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.STAGE = 'test';
process.env.API_SERVICE_TOKENS = TEST_SERVICE_TOKENS;
process.env.JWT_SECRET = TEST_JWT_SECRET;
