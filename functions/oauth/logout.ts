import { apiHandler } from '#lib/http/handler';
import { redirect } from '#lib/http/response';
import { logoutLocation } from '#lib/oauth/login';
import { siteParams } from '#schemas/common';
import { logoutQuery } from '#schemas/oauth';

export const handler = apiHandler({ params: siteParams, query: logoutQuery }, async ({ site, query }) =>
  redirect(logoutLocation(site, query)),
);
