/**
 * One DynamoDB DocumentClient per container (DESIGN habit 6). Only lib/store imports the AWS SDK.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent } from 'node:https';
import { Agent as HttpAgent } from 'node:http';
import { env } from '#lib/config/env';
import { installFaultInjection, parseFaultRates } from '#lib/store/db/fault-injection';
import { installRetryPolicy } from '#lib/store/db/retry';

const { dynamoEndpoint, region, tableName, dynamoFaults } = env();

const isHttp = dynamoEndpoint?.startsWith('http:') ?? false;

export const dynamo = new DynamoDBClient({
  region,
  ...(dynamoEndpoint
    ? {
        endpoint: dynamoEndpoint,
        // DynamoDB Local accepts any credentials; never require a real AWS account locally.
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : {}),
  // The store's own policy (lib/store/db/retry.ts) is the one retry loop: the SDK's would multiply it.
  maxAttempts: 1,
  requestHandler: new NodeHttpHandler({
    // To the service, a connection not made in 1 s is a lost one: retry. To DynamoDB Local on this
    // machine (an endpoint is set) nothing is lost on the way: a slow connect is a busy machine, and
    // answering it with retries and a 503 fails a test for the machine's load.
    connectionTimeout: dynamoEndpoint ? 30_000 : 1_000,
    requestTimeout: 5_000,
    ...(isHttp
      ? { httpAgent: new HttpAgent({ keepAlive: true, maxSockets: 50 }) }
      : { httpsAgent: new Agent({ keepAlive: true, maxSockets: 50 }) }),
  }),
});

installRetryPolicy(dynamo.middlewareStack);
if (dynamoFaults) installFaultInjection(dynamo.middlewareStack, parseFaultRates(dynamoFaults));

export const doc = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

export const TABLE = tableName;
export const GSI1 = 'GSI1';
/** Due work of the scheduled jobs (lifecycle): sparse, only items with work ahead carry its keys. */
export const GSI2 = 'GSI2';
/** Ideas by votes: the tally items, ordered by their `yes` count (docs/data-model.md "Votes"). */
export const GSI3 = 'GSI3';
