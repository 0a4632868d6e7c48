import type { Route } from '#lib/routes/route';
import { argumentFlagsQuery, argumentParams } from '#schemas/argument';

export const argumentGet = {
  operationId: 'argumentGet',
  method: 'GET',
  path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}',
  handler: 'functions/arguments/get',
  dataAccess: 'read',
  params: argumentParams,
  query: argumentFlagsQuery,
  tag: 'Arguments',
  summary: 'View one argument',
  access: 'everyone',
  auth: 'optional',
  success: { status: 200, schema: 'Argument' },
} satisfies Route;
