import type { Route } from '#lib/routes/route';
import { userParams } from '#schemas/user';

export const userExport = {
  operationId: 'userExport',
  method: 'GET',
  path: '/api/site/{siteId}/user/{userId}/export',
  handler: 'functions/users/export',
  dataAccess: 'read',
  params: userParams,
  tag: 'Users',
  summary: 'Export everything the API holds about a person',
  description: "GDPR art. 15/20: `{users, ideas, articles, arguments, votes, newsletterSignups}` over every site the same auth-server user is on (for the user themself or a service token; a site admin's export holds this site's records only).",
  access: "the user themself or a service token (every site); the site's admin (this site's records only)",
  auth: 'required',
  success: { status: 200, schema: 'UserExport' },
  errors: [403],
} satisfies Route;
