/**
 * Is the table reachable? One GetItem of a key nothing is ever written under: the cheapest request
 * the Lambda role is allowed (no DescribeTable in its policy), and it fails when the table or the
 * DynamoDB endpoint is missing.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import type { Key } from '#lib/store/db/keys';

/** Read, never written. */
const PROBE: Key = { PK: 'HEALTH', SK: 'HEALTH' };

export async function tableReachable(): Promise<boolean> {
  try {
    await doc.send(new GetCommand({ TableName: TABLE, Key: PROBE }));
    return true;
  } catch {
    return false;
  }
}
