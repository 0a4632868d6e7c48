/**
 * The observability middleware of the one Middy stack (lib/http/stack.ts): the invocation's trace
 * segment, and after every answer (an error answer too) its counts (lib/observability/metrics.ts),
 * published as one EMF line at the end of the invocation.
 */
import type middy from '@middy/core';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { countResponse, metrics } from '#lib/observability/metrics';
import { tracer } from '#lib/observability/tracer';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

/** The CONTRACT error name of an error answer (`{"status","error","message"}`), for a refusal's reason. */
function errorNameOf(response: APIGatewayProxyStructuredResultV2 | undefined): string | undefined {
  if (!response?.body || (response.statusCode ?? 0) < 400) return undefined;
  try {
    const name = (JSON.parse(response.body) as { error?: unknown }).error;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Counts the answer; `route` is the route's operation id (the `$default` catch-all: its route key). */
export function responseMetrics(route: string | undefined): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const done = (request: Request) => {
    const status = request.response?.statusCode ?? 500;
    countResponse(route ?? request.event.routeKey ?? 'unknown', status, errorNameOf(request.response ?? undefined));
  };
  return { after: done, onError: done };
}

/** Trace segment and published metrics, outermost, so they see the whole invocation. */
export const observability = () => [captureLambdaHandler(tracer, { captureResponse: false }), logMetrics(metrics)] as const;
