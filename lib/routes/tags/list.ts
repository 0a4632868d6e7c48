import type { Route } from '#lib/routes/route';
import { pageQuerySchema, siteParams } from '#schemas/common';

export const tagList = {
  operationId: 'tagList',
  method: 'GET',
  path: '/api/site/{siteId}/tag',
  handler: 'functions/tags/list',
  dataAccess: 'read',
  params: siteParams,
  query: pageQuerySchema,
  tag: 'Tags',
  summary: 'List the tags of a site',
  access: 'everyone',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'TagList' },
} satisfies Route;
