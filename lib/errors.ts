/**
 * Typed errors of the API, domain-neutral (DESIGN habit 14): domain code and lib/store throw these without
 * importing the HTTP layer; the error middleware (lib/http/error-handler.ts)
 * is the one place that turns them into the CONTRACT error body. Anything that is not an ApiError
 * becomes a generic 500 whose message never shows internals.
 */

export interface ErrorDetail {
  /** Dot path of the failing field: `title`, `extraData.theme`, `extraData.tags[1]`, `[2].ideaId` (see errorPath). */
  path: string;
  message: string;
}

/**
 * The one formatter of `details` paths (CONTRACT "Decided details"): object keys joined with dots,
 * array indexes in brackets, so `extraData.tags[1]`, `[2].ideaId`, `config.votes.themes[0].value`.
 * Every producer of a path (zod issues, extraData checks, storability checks, the reserved-key scan of
 * bodies) goes through here, so the form cannot drift between endpoints. Here rather than in a helper
 * module because lib/store may import errors and nothing of lib/http.
 */
export const childPath = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;

/** A path from its segments (zod's `issue.path`): numbers are array indexes, anything else a key. */
export function errorPath(segments: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const part of segments) out = childPath(out, typeof part === 'number' ? part : String(part));
  return out;
}

type ErrorName =
  | 'BadRequest'
  | 'ValidationError'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'BadGateway'
  | 'ServiceUnavailable'
  | 'InternalError';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorName,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. `WWW-Authenticate` on a Basic Auth 401. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = error;
  }
}

/**
 * On a vote receipt's 404: the time up to which the latest checkpoint covers votes (lib/votes/record.ts).
 * Declared here, with the errors that carry it, for CORS to expose it (lib/http/cors.ts).
 */
export const RECORD_CUT_HEADER = 'Vote-Record-Cut';

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);

export const validationError = (details: ErrorDetail[], message = 'Validation failed') =>
  new ApiError(400, 'ValidationError', message, details);

export const unauthorized = (message = 'Authentication required', headers?: Record<string, string>) =>
  new ApiError(401, 'Unauthorized', message, undefined, headers);

export const forbidden = (message = 'Not allowed') => new ApiError(403, 'Forbidden', message);

export const notFound = (message: string) => new ApiError(404, 'NotFound', message);

export const conflict = (message: string) => new ApiError(409, 'Conflict', message);

export const payloadTooLarge = (message = 'Request body is larger than 256 KiB') =>
  new ApiError(413, 'PayloadTooLarge', message);

export const unsupportedMediaType = (message = 'Request body must be application/json') =>
  new ApiError(415, 'UnsupportedMediaType', message);

/** A brute-force limit (lib/request/rate-limit.ts); `Retry-After` says when the window ends. */
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests from this address; try again later') =>
  new ApiError(429, 'TooManyRequests', message, undefined, { 'retry-after': String(retryAfterSeconds) });

/** An upstream service (the OAuth server) failed; nothing was changed locally. */
export const badGateway = (message: string) => new ApiError(502, 'BadGateway', message);

/**
 * A dependency of the API itself (the table) cannot be reached (GET /api/health), or DynamoDB kept
 * throttling after the store's retries (lib/store/db/retry.ts): then `Retry-After` says when to try again.
 */
export const serviceUnavailable = (message: string, retryAfterSeconds?: number) =>
  new ApiError(503, 'ServiceUnavailable', message, undefined, retryAfterSeconds === undefined ? undefined : { 'retry-after': String(retryAfterSeconds) });

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/**
 * A stored item that does not have the shape its record kind declares (lib/store/db/codec.ts): a bug, a
 * hand edit or a migration that missed it, never the client's fault. Deliberately not an ApiError: the
 * error middleware logs it whole (the item's key and its first problem, no stored values) and answers
 * the generic 500 InternalError, so nothing of the item reaches the client.
 */
export class CorruptRecordError extends Error {
  constructor(
    /** The record kind, as its codec names it (`user`, `idea or article`, ...). */
    readonly kind: string,
    /** `<PK> <SK>` of the item, or a note that the read projected the key away. */
    readonly key: string,
    readonly problem: ErrorDetail,
  ) {
    super(`Stored ${kind} ${key} is malformed: ${problem.path === '' ? 'the item' : problem.path} ${problem.message}`);
    this.name = 'CorruptRecordError';
  }
}
