/**
 * The floor of the bundle figures: a handler that only creates what every API function must hold,
 * the DynamoDB client (client + DocumentClient, created at module load) and the reader of the stage's
 * secret store (lib/store/secrets: a Powertools Parameters provider over the SSM client; a function
 * cannot verify a token or read its keys without it), and sends nothing. Whatever a function weighs or
 * takes to load beyond this is our code and our other dependencies.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SecretParameters } from '#lib/store/secrets/parameter-provider';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const secrets = new SecretParameters([]);

export const handler = async () => ({ statusCode: 200, body: `${typeof doc.send} ${typeof secrets.get}` });
