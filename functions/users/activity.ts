import { apiHandler } from '#lib/http/handler';
import { userActivity as userActivityRoute } from '#lib/routes/users/activity';
import { ok } from '#lib/http/response';
import { userActivity } from '#lib/privacy/activity';

export const handler = apiHandler(userActivityRoute, async ({ site, caller, params, query }) =>
  ok(await userActivity(site, caller, params.userId, query)),
);
