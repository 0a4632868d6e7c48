import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { createUserBody } from '#schemas/user';

export const userCreate = {
  operationId: 'userCreate',
  method: 'POST',
  path: '/api/site/{siteId}/user',
  handler: 'functions/users/create',
  dataAccess: 'write',
  params: siteParams,
  body: createUserBody,
  tag: 'Users',
  summary: 'Create a user (also on the auth server)',
  access: 'moderators and above while `users.canCreateNewUsers`',
  auth: 'required',
  success: { status: 201, schema: 'User', location: '/api/site/{siteId}/user/{userId}' },
  errors: [403, 409, 502],
} satisfies Route;
