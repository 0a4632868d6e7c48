/**
 * The floor of the bundle figures: a handler that only loads the DynamoDB client the way every
 * function does (client + DocumentClient, created at module load) and sends nothing. Whatever a
 * function weighs or takes to load beyond this is our code and our other dependencies.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => ({ statusCode: 200, body: typeof doc.send });
