import type { Route } from '#lib/routes/route';
import { pageQuerySchema, siteParams } from '#schemas/common';

export const userList = {
  operationId: 'userList',
  method: 'GET',
  path: '/api/site/{siteId}/user',
  handler: 'functions/users/list',
  dataAccess: 'read',
  params: siteParams,
  query: pageQuerySchema,
  tag: 'Users',
  summary: 'List the users of a site',
  access: 'moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'UserList' },
  errors: [403],
} satisfies Route;
