/**
 * Typed errors of the API. Domain code throws these; the error middleware (lib/http/error-handler.ts)
 * is the one place that turns them into the CONTRACT error body. Anything that is not an ApiError
 * becomes a generic 500 whose message never shows internals.
 */

export interface ErrorDetail {
  /** Dot path of the failing field: `title`, `extraData.theme`, `[2].ideaId`. */
  path: string;
  message: string;
}

export type ErrorName =
  | 'BadRequest'
  | 'ValidationError'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
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

/** An upstream service (the OAuth server) failed; nothing was changed locally. */
export const badGateway = (message: string) => new ApiError(502, 'BadGateway', message);

/** A dependency of the API itself (the table) cannot be reached: GET /api/health. */
export const serviceUnavailable = (message: string) => new ApiError(503, 'ServiceUnavailable', message);

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;
