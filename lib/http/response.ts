/**
 * Response shapes of CONTRACT "Responses": JSON everywhere, the list envelope, the delete answer.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export interface ApiResult {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** `Set-Cookie` values (payload 2.0 `cookies`); only the login sets one (lib/http/cookies.ts). */
  cookies?: string[];
  /** A text answer (exports): `body` is sent as it is with this content type. */
  contentType?: string;
}

/**
 * A create's `Location` (RFC 9110 10.2.2): the route's path template of the new record, each
 * parameter from the request's path, the one it does not have from the record's `id`
 * (`/api/site/{siteId}/idea/{ideaId}` after `POST /api/site/3/idea` made idea 12: `/api/site/3/idea/12`).
 */
export function locationOf(template: string, pathParameters: Record<string, string | undefined>, body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== 'number') return undefined;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParameters[name] ?? String(id)));
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResult => ({ statusCode: 200, body, headers });
export const created = (body: unknown): ApiResult => ({ statusCode: 201, body });
export const deleted = (id: number): ApiResult => ({ statusCode: 200, body: { id, deleted: true } });
export const redirect = (location: string, cookies?: string[]): ApiResult => ({
  statusCode: 302,
  headers: { location, 'cache-control': 'no-store' },
  ...(cookies?.length ? { cookies } : {}),
});

/** 200 with a text body (CSV, Pabulib): the content type as given, the security and CORS headers as for JSON. */
export const text = (body: string, contentType: string, headers?: Record<string, string>): ApiResult => ({
  statusCode: 200,
  body,
  contentType,
  ...(headers ? { headers } : {}),
});

export const list = <T>(records: T[], pageSize: number, nextCursor: string | null): ApiResult =>
  ok({ records, metadata: { pageSize, nextCursor } });

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** The HTTP answer of a handler's result: JSON, or the text of `text()`. */
export function httpResponse(result: ApiResult): APIGatewayProxyStructuredResultV2 {
  if (result.contentType !== undefined && typeof result.body === 'string') {
    return { statusCode: result.statusCode, headers: { 'content-type': result.contentType, ...result.headers }, body: result.body };
  }
  return jsonResponse(result.statusCode, result.body, result.headers);
}
