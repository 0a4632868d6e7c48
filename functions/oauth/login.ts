import { apiHandler } from '#lib/http/handler';
import { oauthLogin } from '#lib/routes/oauth/login';
import { redirect } from '#lib/http/response';
import { loginStart } from '#lib/oauth/login';

export const handler = apiHandler(oauthLogin, async ({ site, query, headers }) => {
  const { location, cookies } = await loginStart(site, query, headers);
  return redirect(location, cookies);
});
