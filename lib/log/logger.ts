/**
 * The one structured logger (DESIGN habit 11). Request ids are appended by the HTTP stack; tokens and
 * bodies are never logged.
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({
  serviceName: 'participation-api',
  logLevel: (process.env.LOG_LEVEL ?? (process.env.VITEST ? 'SILENT' : 'INFO')) as 'INFO',
});
