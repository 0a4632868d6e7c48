/**
 * The one place that turns errors into the CONTRACT error body. A 5xx never shows internals: the real
 * error goes to the log with the request id, the client gets a generic message.
 */
import type middy from '@middy/core';
import { isApiError } from '#lib/errors';
import { logger } from '#lib/log/logger';
import { jsonResponse } from '#lib/http/response';

export function errorResponder(): middy.MiddlewareObj {
  return {
    onError: (request) => {
      const err = request.error;
      if (isApiError(err)) {
        const body: Record<string, unknown> = { status: err.status, error: err.error, message: err.message };
        if (err.details) body.details = err.details;
        if (err.status >= 500) logger.error('upstream failure', { error: err.message });
        request.response = jsonResponse(err.status, body, err.headers);
        return;
      }
      logger.error('unhandled error', { error: err as Error });
      request.response = jsonResponse(500, {
        status: 500,
        error: 'InternalError',
        message: 'Something went wrong on our side; the error has been logged',
      });
    },
  };
}
