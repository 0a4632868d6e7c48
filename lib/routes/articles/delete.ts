import type { Route } from '#lib/routes/route';
import { articleParams } from '#schemas/article';

export const articleDelete = {
  operationId: 'articleDelete',
  method: 'DELETE',
  path: '/api/site/{siteId}/article/{articleId}',
  handler: 'functions/articles/delete',
  dataAccess: 'write',
  params: articleParams,
  tag: 'Articles',
  summary: 'Delete one article',
  access: 'moderators and above, the owner',
  auth: 'required',
  success: { status: 200, schema: 'Deleted' },
  errors: [403],
} satisfies Route;
