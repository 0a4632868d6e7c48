/**
 * Sends one hostile request to a handler in-process, the way API Gateway (HTTP API, payload 2.0) would,
 * with full control over what `invoke` normally fills in: the exact body text, the content type (or
 * none at all), base64 encoding and every header. The answer is returned raw, so the contract check
 * can see a body that is not JSON, and a handler that throws instead of answering is reported as such
 * (API Gateway would turn it into a 500 the client sees).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { lambdaContext } from '../../../scripts/lambda-call.ts';

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface HostileRequest {
  /** Path parameters as API Gateway passes them: strings (a missing one is simply absent). */
  params?: Record<string, string | undefined>;
  query?: Record<string, string>;
  /** A JS value sent as JSON (an own `__proto__` key survives, see `jsonText`). */
  body?: unknown;
  /** The exact body text; wins over `body`. */
  rawBody?: string;
  /** `undefined`: `application/json` when there is a body; `null`: no Content-Type header at all. */
  contentType?: string | null;
  isBase64Encoded?: boolean;
  headers?: Record<string, string>;
  /** Sent as `X-Authorization: Bearer <token>`. */
  token?: string;
  /** For the catch-all route: the raw path and method. */
  rawPath?: string;
  method?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The body text exactly as the handler returned it. */
  text: string;
}

/** JSON text of a value; plain `JSON.stringify` keeps own `__proto__` keys made by `JSON.parse`. */
const jsonText = (value: unknown): string => JSON.stringify(value);

export async function send(handler: Handler, route: { method: string; path: string }, req: HostileRequest): Promise<Answer> {
  const method = req.method ?? route.method;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (req.rawBody !== undefined) body = req.rawBody;
  else if (req.body !== undefined) body = jsonText(req.body);
  if (body !== undefined && req.contentType !== null) headers['content-type'] = req.contentType ?? 'application/json';
  if (req.token !== undefined) headers['x-authorization'] = `Bearer ${req.token}`;
  Object.assign(headers, req.headers ?? {});

  const pathParameters = Object.fromEntries(
    Object.entries(req.params ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  // The path as the client sent it (a proxy route, the OpenStad surface's, routes by it): each
  // parameter percent-encoded in its place, a missing one empty.
  const path = req.rawPath ?? route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(pathParameters[name] ?? ''));
  const query = req.query ?? {};
  const event = {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters,
    body,
    isBase64Encoded: req.isBase64Encoded ?? false,
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'hostile-suite' },
      requestId: randomUUID(),
      routeKey: `${route.method} ${route.path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
    },
  } as unknown as APIGatewayProxyEventV2;
  const context = lambdaContext('hostile');

  let result: APIGatewayProxyStructuredResultV2;
  try {
    result = (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
  } catch (err) {
    // A handler must always answer; a throw reaches the client as API Gateway's own 500.
    throw new Error(`the handler threw instead of answering: ${(err as Error)?.stack ?? String(err)}`, { cause: err });
  }
  return {
    status: result.statusCode ?? 200,
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
    text: typeof result.body === 'string' ? result.body : '',
  };
}
