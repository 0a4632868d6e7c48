/**
 * The OpenStad surface's one Lambda function (one function for the whole prefix: CloudFormation's
 * 500-resource limit), declared once: functions/openstad/functions.yml is written from it
 * (scripts/routes/functions-yml.ts), the adapter strips its prefix, and the package test reads its
 * access class.
 */
import type { AccessClass } from '#lib/config/access-classes';

export const OPENSTAD_PREFIX = '/openstad';

export const OPENSTAD_FUNCTION = {
  name: 'openstad',
  handler: 'functions/openstad/handler',
  path: `${OPENSTAD_PREFIX}/{proxy+}`,
  /** A whole list is read through the main API's cursor, 500 records a call: up to API Gateway's 30 s. */
  timeout: 29,
  memorySize: 1024,
  /**
   * It calls every main route's handler in-process (their own access checks apply), so it needs the
   * widest class among them: the writes' (tests/unit/openstad/adapter.test.ts holds it to the routes).
   */
  dataAccess: 'write' as AccessClass,
};
