import type { Route } from '#lib/routes/route';
import { updateUserBody, userParams } from '#schemas/user';

export const userUpdate = {
  operationId: 'userUpdate',
  method: 'PUT',
  path: '/api/site/{siteId}/user/{userId}',
  handler: 'functions/users/update',
  dataAccess: 'write',
  params: userParams,
  body: updateUserBody,
  tag: 'Users',
  summary: 'Update one user (also on the auth server)',
  access: 'the owner, moderators and above; nobody may give a role above their own',
  auth: 'required',
  success: { status: 200, schema: 'User' },
  errors: [403, 409, 502],
} satisfies Route;
