import type { Route } from '#lib/routes/route';
import { argumentListQuery } from '#schemas/argument';
import { siteParams } from '#schemas/common';

export const argumentListSite = {
  operationId: 'argumentListSite',
  method: 'GET',
  path: '/api/site/{siteId}/argument',
  handler: 'functions/arguments/list-site',
  dataAccess: 'read',
  params: siteParams,
  query: argumentListQuery,
  tag: 'Arguments',
  summary: 'List all arguments of a site',
  access: 'everyone',
  auth: 'optional',
  success: { status: 200, schema: 'ArgumentList' },
} satisfies Route;
