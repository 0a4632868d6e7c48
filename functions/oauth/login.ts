import { apiHandler } from '#lib/http/handler';
import { redirect } from '#lib/http/response';
import { loginLocation } from '#lib/oauth/login';
import { siteParams } from '#schemas/common';
import { loginQuery } from '#schemas/oauth';

export const handler = apiHandler({ params: siteParams, query: loginQuery }, async ({ site, query, headers }) =>
  redirect(await loginLocation(site, query, headers)),
);
