/**
 * Creates the table (and its index) from lib/store/table-definition.json, the same definition the
 * CloudFormation resource in serverless.yml uses. For local runs and tests only: on AWS the stack
 * owns the table.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import definition from './table-definition.json' with { type: 'json' };
import { dynamo, TABLE } from '#lib/store/client';

export async function waitForDynamo(timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await dynamo.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Creates the table when it does not exist yet; returns true when it was created. */
export async function ensureTable(tableName: string = TABLE): Promise<boolean> {
  try {
    await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
  }
  const { TimeToLiveAttribute, ...shape } = definition;
  await dynamo.send(new CreateTableCommand({ TableName: tableName, ...(shape as Omit<CreateTableCommandInput, 'TableName'>) }));
  await dynamo.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TimeToLiveAttribute, Enabled: true },
    }),
  );
  return true;
}
