import { apiHandler } from '#lib/http/handler';
import { redirect } from '#lib/http/response';
import { digestLoginLocation } from '#lib/oauth/login';
import { siteParams } from '#schemas/common';
import { digestLoginQuery } from '#schemas/oauth';

export const handler = apiHandler({ params: siteParams, query: digestLoginQuery }, async ({ site, query }) =>
  redirect(await digestLoginLocation(site, query)),
);
