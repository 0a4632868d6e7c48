import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listIdeasQuery } from '#schemas/idea';

export const ideaList = {
  operationId: 'ideaList',
  method: 'GET',
  path: '/api/site/{siteId}/idea',
  handler: 'functions/ideas/list',
  dataAccess: 'read',
  params: siteParams,
  query: listIdeasQuery,
  tag: 'Ideas',
  summary: 'List the ideas of a site',
  access: 'everyone',
  auth: 'optional',
  success: { status: 200, schema: 'IdeaList' },
} satisfies Route;
