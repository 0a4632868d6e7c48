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
   * It calls the main routes' handlers in-process (their own access checks apply), so it needs the
   * widest class among them: the ballot writes' (the vote log's chain key). The vote record's public
   * key is not behind it: its class holds a key no other function may (tests/unit/openstad/adapter.test.ts).
   */
  dataAccess: 'ballot' as AccessClass,
};
