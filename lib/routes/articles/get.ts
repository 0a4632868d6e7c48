import type { Route } from '#lib/routes/route';
import { articleIncludeQuery, articleParams } from '#schemas/article';

export const articleGet = {
  operationId: 'articleGet',
  method: 'GET',
  path: '/api/site/{siteId}/article/{articleId}',
  handler: 'functions/articles/get',
  dataAccess: 'read',
  params: articleParams,
  query: articleIncludeQuery,
  tag: 'Articles',
  summary: 'View one article',
  access: 'everyone',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'Article' },
} satisfies Route;
