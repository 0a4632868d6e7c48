import type { Route } from '#lib/routes/route';
import { ideaIncludeQuery, ideaParams } from '#schemas/idea';

export const ideaGet = {
  operationId: 'ideaGet',
  method: 'GET',
  path: '/api/site/{siteId}/idea/{ideaId}',
  handler: 'functions/ideas/get',
  dataAccess: 'read',
  params: ideaParams,
  query: ideaIncludeQuery,
  tag: 'Ideas',
  summary: 'View one idea',
  access: 'everyone',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'Idea' },
} satisfies Route;
