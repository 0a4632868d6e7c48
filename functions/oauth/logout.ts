import { apiHandler } from '#lib/http/handler';
import { oauthLogout } from '#lib/routes/oauth/logout';
import { redirect } from '#lib/http/response';
import { logoutLocation } from '#lib/oauth/login';

export const handler = apiHandler(oauthLogout, async ({ site, query }) =>
  redirect(logoutLocation(site, query)),
);
