/**
 * Calls a Lambda handler in-process with an API Gateway HTTP API (payload 2.0) event, the way API
 * Gateway would, and returns the parsed answer. Integration tests use it against DynamoDB Local.
 */
import { call, json, type CallOptions, type Handler } from '../../scripts/lambda-call.ts';

export type InvokeOptions = CallOptions;

export interface InvokeResult<T = any> {
  status: number;
  body: T;
  headers: Record<string, string>;
  /** `Set-Cookie` values of the answer. */
  cookies: string[];
}

export async function invoke<T = any>(handler: Handler, options: InvokeOptions = {}): Promise<InvokeResult<T>> {
  const result = await call(handler, options);
  return { status: result.status, body: json<T>(result), headers: result.headers, cookies: result.cookies };
}
