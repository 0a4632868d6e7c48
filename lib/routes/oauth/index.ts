/** Routes: Login per site (CONTRACT "Login"): browser redirects, so GET only. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { oauthLogin } from '#lib/routes/oauth/login';
import { oauthDigestLogin } from '#lib/routes/oauth/digest-login';
import { oauthMe } from '#lib/routes/oauth/me';
import { oauthLogout } from '#lib/routes/oauth/logout';

export const oauthRoutes: Route[] = [oauthLogin, oauthDigestLogin, oauthMe, oauthLogout];
