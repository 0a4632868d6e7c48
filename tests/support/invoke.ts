/**
 * Calls a Lambda handler in-process with an API Gateway HTTP API (payload 2.0) event, the way API
 * Gateway would, and returns the parsed answer. Integration tests use it against DynamoDB Local.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface InvokeOptions {
  method?: string;
  /** Route key path, for the log only. */
  path?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  /** A JS value is sent as JSON; a string is sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as `X-Authorization: Bearer <token>`. */
  token?: string;
}

export interface InvokeResult<T = any> {
  status: number;
  body: T;
  headers: Record<string, string>;
}

export async function invoke<T = any>(handler: Handler, options: InvokeOptions = {}): Promise<InvokeResult<T>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  if (options.token) headers['X-Authorization'] = `Bearer ${options.token}`;
  const pathParameters = Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)]));
  const path = options.path ?? '/';
  const event = {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    queryStringParameters: options.query,
    pathParameters,
    body,
    isBase64Encoded: false,
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: randomUUID(),
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
    },
  } as unknown as APIGatewayProxyEventV2;
  const context = {
    awsRequestId: randomUUID(),
    functionName: 'test',
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
  const result = (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
  const text = typeof result.body === 'string' ? result.body : '';
  return {
    status: result.statusCode ?? 200,
    body: text ? JSON.parse(text) : undefined,
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
  } as InvokeResult<T>;
}
