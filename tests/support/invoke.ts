/**
 * Calls a Lambda handler in-process with an API Gateway HTTP API (payload 2.0) event, the way API
 * Gateway would, and returns the parsed answer. Integration tests use it against DynamoDB Local.
 */
import { call, json, type CallOptions, type Handler } from '../../scripts/lambda-call.ts';
import type { AccessClass } from '#lib/config/access-classes';
import { asAccessClass, installAccessCheck } from './access-check.ts';

let checking: Promise<void> | undefined;
/** The access check on the store's client, once per test file, at the first invoke (the handler has loaded the client by then). */
const ensureAccessCheck = () =>
  (checking ??= import('#lib/store/db/client').then(({ dynamo }) => installAccessCheck(dynamo.middlewareStack as unknown as Parameters<typeof installAccessCheck>[0])));

export type InvokeOptions = CallOptions;

export interface InvokeResult<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string>;
  /** `Set-Cookie` values of the answer. */
  cookies: string[];
}

/**
 * `T` is the body the test expects on success: a record type of schemas/*.ts or tests/support/bodies.ts
 * (`invoke<ListEnvelope<IdeaRecord>>`). Like any parsed JSON it is not checked; an error answer is read
 * through `errorOf`, which checks it. Without `T` the body is `unknown`.
 */
export async function invoke<T = unknown>(handler: Handler, options: InvokeOptions = {}): Promise<InvokeResult<T>> {
  // A route's handler carries its access class (lib/http/handler.ts): its requests are checked against it.
  const { dataAccess, operationId } = handler as Handler & { dataAccess?: AccessClass; operationId?: string };
  if (dataAccess) await ensureAccessCheck();
  const result = await (dataAccess ? asAccessClass(dataAccess, operationId ?? 'a handler', () => call(handler, options)) : call(handler, options));
  return { status: result.status, body: json<T>(result), headers: result.headers, cookies: result.cookies };
}
