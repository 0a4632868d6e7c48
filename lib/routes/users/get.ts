import type { Route } from '#lib/routes/route';
import { userParams } from '#schemas/user';

export const userGet = {
  operationId: 'userGet',
  method: 'GET',
  path: '/api/site/{siteId}/user/{userId}',
  handler: 'functions/users/get',
  dataAccess: 'read',
  params: userParams,
  tag: 'Users',
  summary: 'View one user',
  access: 'everyone; the owner and moderators and above see all fields, others `{id, role, displayName, nickName}`',
  auth: 'optional',
  success: { status: 200, schema: ['User','PublicUser'] },
} satisfies Route;
