import type { Route } from '#lib/routes/route';
import { userParams } from '#schemas/user';

export const userDelete = {
  operationId: 'userDelete',
  method: 'DELETE',
  path: '/api/site/{siteId}/user/{userId}',
  handler: 'functions/users/delete',
  dataAccess: 'write',
  params: userParams,
  tag: 'Users',
  summary: 'Delete one user',
  access: 'the owner, moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'Deleted' },
  errors: [403, 502],
} satisfies Route;
