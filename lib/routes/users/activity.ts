import type { Route } from '#lib/routes/route';
import { userParams } from '#schemas/user';
import { activityQuery } from '#schemas/user-activity';

export const userActivity = {
  operationId: 'userActivity',
  method: 'GET',
  path: '/api/site/{siteId}/user/{userId}/activity',
  handler: 'functions/users/activity',
  dataAccess: 'read',
  params: userParams,
  query: activityQuery,
  tag: 'Users',
  summary: "A user's ideas, articles, arguments and votes",
  description: '`includeOtherSites` (default true) adds the same auth-server user on other sites. When none of the four include flags is given, all are on.',
  access: 'the owner, moderators and above',
  auth: 'required',
  parameterDocs: { includeArguments: "The user's arguments (see includeIdeas)." },
  success: { status: 200, schema: 'Activity' },
  errors: [403],
} satisfies Route;
