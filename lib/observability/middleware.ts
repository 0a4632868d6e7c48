/**
 * The observability middleware of the one Middy stack (lib/http/stack.ts): after every answer (an
 * error answer too) its counts (lib/observability/metrics.ts), published as one EMF line at the end
 * of the invocation.
 *
 * Traces: X-Ray active tracing on every function (serverless.yml `provider.tracing`) records each
 * invocation with its initialisation and duration. Powertools Tracer, which would add a subsegment per
 * DynamoDB or SSM call, is not used: it needs the X-Ray SDK, 140 KB more in every bundle (docs/
 * benchmarks.md), for detail the DynamoDB request counts and the access log already give.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { countResponse, metrics } from '#lib/observability/metrics';

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

/**
 * Publishes the invocation's counts at its end, outermost, so it sees the whole invocation. One that
 * counted nothing (a 200 of a route without an outcome) writes nothing: Powertools' own middleware
 * would log a warning for it on every such request.
 */
function publishMetrics(): middy.MiddlewareObj {
  const publish = () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: publish, onError: publish };
}

export const observability = () => [publishMetrics()] as const;
