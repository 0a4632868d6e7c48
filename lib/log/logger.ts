/**
 * The one structured logger (DESIGN habit 11), at the level `LOG_LEVEL` sets (lib/config/env.ts; tests
 * run silent unless it is set). Every line written while a Lambda runs carries its request id: the
 * HTTP stack and the job runner bind the logger to the invocation's context (`bindToInvocation`).
 * Tokens and bodies are never logged.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { env } from '#lib/config/env';

export const logger = new Logger({ serviceName: 'participation-api', logLevel: env().logLevel });

/**
 * Middy middleware: adds the Lambda context (`function_request_id`, function name, cold start) to every
 * line of the invocation, and forgets it (and any key appended during it) when the invocation ends.
 */
export const bindToInvocation = () => injectLambdaContext(logger, { resetKeys: true });
