/**
 * Creates the table (and its index) from lib/store/table-definition.json, the same definition the
 * CloudFormation resource in serverless.yml uses. For local runs and tests only: on AWS the stack
 * owns the table.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import definition from '../table-definition.json' with { type: 'json' };
import { dynamo, TABLE } from '#lib/store/db/client';

/** Creates the table when it does not exist yet; returns true when it was created. */
export async function ensureTable(tableName: string = TABLE): Promise<boolean> {
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(tableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName)));
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

/**
 * A local table kept from before an index was added to the definition (`.data/` survives restarts)
 * gets the index it lacks, so `npm start` on old data still serves every access pattern.
 */
async function addMissingIndexes(tableName: string, present: Set<string | undefined>): Promise<void> {
  for (const index of definition.GlobalSecondaryIndexes) {
    if (present.has(index.IndexName)) continue;
    const attributes = new Set(index.KeySchema.map((k) => k.AttributeName));
    await dynamo.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: definition.AttributeDefinitions.filter((a) => attributes.has(a.AttributeName)) as CreateTableCommandInput['AttributeDefinitions'],
        GlobalSecondaryIndexUpdates: [{ Create: index as NonNullable<CreateTableCommandInput['GlobalSecondaryIndexes']>[number] }],
      }),
    );
  }
}
