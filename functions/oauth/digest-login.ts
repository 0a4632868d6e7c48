import { apiHandler } from '#lib/http/handler';
import { redirect } from '#lib/http/response';
import { digestLogin } from '#lib/oauth/login';
import { siteParams } from '#schemas/common';
import { digestLoginQuery } from '#schemas/oauth';

export const handler = apiHandler({ params: siteParams, query: digestLoginQuery, rateLimit: 'digest-login' }, async ({ site, query, cookies }) => {
  const { location, cookies: set } = await digestLogin(site, query, cookies);
  return redirect(location, set);
});
