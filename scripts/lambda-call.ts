/**
 * Calls a Lambda handler in-process with an API Gateway HTTP API (payload 2.0) event, the way API
 * Gateway would. Shared by the integration tests (tests/support/invoke.ts) and the benchmarks
 * (scripts/bench/), which time `call` (the event, its context and the handler): parsing the JSON is left out.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { slowdown } from './machine-load.ts';

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface CallOptions {
  method?: string;
  path?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as `X-Authorization: Bearer <token>`. */
  token?: string;
  /** Request cookies (`name=value`), as API Gateway passes them in `event.cookies`. */
  cookies?: string[];
  /** The client address API Gateway reports (`requestContext.http.sourceIp`); default 127.0.0.1. */
  sourceIp?: string;
  /** API Gateway's request time (`requestContext.timeEpoch`, ms); default now. */
  timeEpoch?: number;
}

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  /** The raw JSON text of the answer (parse it with `json()`). */
  text: string;
  /** `Set-Cookie` values of the answer (payload 2.0 `cookies`). */
  cookies: string[];
}

export const json = <T = unknown>(result: CallResult): T => (result.text ? JSON.parse(result.text) : undefined) as T;

export function buildEvent(options: CallOptions): { event: APIGatewayProxyEventV2; context: Context } {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  if (options.token) headers['X-Authorization'] = `Bearer ${options.token}`;
  const path = options.path ?? '/';
  const event = {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    ...(options.cookies ? { cookies: options.cookies } : {}),
    queryStringParameters: options.query,
    pathParameters: Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)])),
    body,
    isBase64Encoded: false,
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '127.0.0.1', userAgent: 'in-process' },
      requestId: randomUUID(),
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: options.timeEpoch ?? Date.now(),
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
    },
  } as unknown as APIGatewayProxyEventV2;
  return { event, context: lambdaContext('in-process') };
}

/**
 * The Lambda context of an in-process call. Its remaining time is no function timeout: a call here
 * runs beside other tests against DynamoDB Local on a shared machine, where the stalls of a busy
 * machine are no handler's fault, so Middy's timeout (a 500) must not end it. A minute of
 * quiet-machine time (scripts/machine-load.ts) is left as the bound of a call that hangs; Lambda's
 * own timeout is tested over HTTP (tests/e2e/api-gateway-fidelity.test.ts).
 */
export function lambdaContext(functionName: string): Context {
  const remainingMs = 60_000 * slowdown();
  return { awsRequestId: randomUUID(), functionName, getRemainingTimeInMillis: () => remainingMs } as unknown as Context;
}

export async function call(handler: Handler, options: CallOptions = {}): Promise<CallResult> {
  const { event, context } = buildEvent(options);
  const result = (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
  return {
    status: result.statusCode ?? 200,
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    text: typeof result.body === 'string' ? result.body : '',
    cookies: result.cookies ?? [],
  };
}

/** Fails the bench loudly when a call does not answer as the scenario expects (a count of a 4xx means nothing). */
export function expectStatus(result: CallResult, expected: number, what: string): CallResult {
  if (result.status !== expected) throw new Error(`${what}: expected ${expected}, got ${result.status}: ${result.text.slice(0, 300)}`);
  return result;
}
