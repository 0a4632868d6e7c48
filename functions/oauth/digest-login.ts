import { apiHandler } from '#lib/http/handler';
import { oauthDigestLogin } from '#lib/routes/oauth/digest-login';
import { redirect } from '#lib/http/response';
import { digestLogin } from '#lib/oauth/login';

export const handler = apiHandler(oauthDigestLogin, async ({ site, query, cookies }) => {
  const { location, cookies: set } = await digestLogin(site, query, cookies);
  return redirect(location, set);
});
