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
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResult => ({ statusCode: 200, body, headers });
export const created = (body: unknown): ApiResult => ({ statusCode: 201, body });
export const deleted = (id: number): ApiResult => ({ statusCode: 200, body: { id, deleted: true } });
export const redirect = (location: string, cookies?: string[]): ApiResult => ({
  statusCode: 302,
  headers: { location, 'cache-control': 'no-store' },
  ...(cookies?.length ? { cookies } : {}),
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
