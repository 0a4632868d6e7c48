/**
 * One DynamoDB Local per test run on a free port (in memory), with the table created. Tests use
 * unique site ids, so files run in parallel against the same database without colliding.
 */
import type { TestProject } from 'vitest/node';
import { startDynamoLocal, type DynamoLocal } from '../../scripts/dynamo-local.ts';

let dynamo: DynamoLocal | undefined;

export default async function setup(project: TestProject) {
  dynamo = await startDynamoLocal();
  const tableName = `participation-test-${process.pid}`;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.STAGE = 'test';
  const { ensureTable } = await import('#lib/store/db/table');
  await ensureTable();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', tableName);
  return async () => {
    await dynamo?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
  }
}
