import type { Route } from '#lib/routes/route';
import { listArticlesQuery } from '#schemas/article';
import { siteParams } from '#schemas/common';

export const articleList = {
  operationId: 'articleList',
  method: 'GET',
  path: '/api/site/{siteId}/article',
  handler: 'functions/articles/list',
  dataAccess: 'read',
  params: siteParams,
  query: listArticlesQuery,
  tag: 'Articles',
  summary: 'List the articles of a site',
  access: 'everyone',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'ArticleList' },
} satisfies Route;
