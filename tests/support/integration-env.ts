/**
 * Points the code under test at the run's DynamoDB Local before any module reads the environment.
 */
import { inject } from 'vitest';

process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.STAGE = 'test';
process.env.API_SERVICE_TOKENS = 'test-service-token-aaaaaaaaaaaaaaaa,second-service-token-bbbbbbbbbbbbbbb';
process.env.JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';
