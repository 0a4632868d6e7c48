import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { userActivity } from '#lib/users/activity';
import { activityQuery, userParams } from '#schemas/user';

export const handler = apiHandler({ params: userParams, query: activityQuery }, async ({ site, caller, params, query }) =>
  ok(await userActivity(site, caller, params.userId, query)),
);
