/**
 * X-Ray traces (Powertools Tracer, DESIGN habit 20): with active tracing on every function
 * (serverless.yml `provider.tracing`), each invocation is a segment with its cold start, route and
 * error annotated, and every outgoing HTTPS call (DynamoDB, SSM, the auth server) a subsegment, so
 * lib/store needs no tracing code. Off the Lambda runtime the tracer does nothing.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';

export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'participation-api-local' });
