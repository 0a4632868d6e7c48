import { apiHandler } from '#lib/http/handler';
import { redirect } from '#lib/http/response';
import { loginStart } from '#lib/oauth/login';
import { siteParams } from '#schemas/common';
import { loginQuery } from '#schemas/oauth';

export const handler = apiHandler({ params: siteParams, query: loginQuery, rateLimit: 'login' }, async ({ site, query, headers }) => {
  const { location, cookies } = await loginStart(site, query, headers);
  return redirect(location, cookies);
});
