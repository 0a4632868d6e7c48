import type { Route } from '#lib/routes/route';
import { argumentListQuery, ideaArgumentsParams } from '#schemas/argument';

export const argumentList = {
  operationId: 'argumentList',
  method: 'GET',
  path: '/api/site/{siteId}/idea/{ideaId}/argument',
  handler: 'functions/arguments/list',
  dataAccess: 'read',
  params: ideaArgumentsParams,
  query: argumentListQuery,
  tag: 'Arguments',
  summary: 'List the arguments of one idea',
  access: 'everyone',
  auth: 'optional',
  success: { status: 200, schema: 'ArgumentList' },
} satisfies Route;
