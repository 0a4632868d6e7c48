/**
 * The login flow of CONTRACT "Login" (OAuth 2.0 authorization code grant, RFC 6749 4.1):
 *
 *   login         -> 302 to the auth server with a signed `state` that carries the redirectUrl
 *   digest-login  <- the auth server's redirect with `code` and `state`: check the state, exchange the
 *                    code, read the user, create/refresh the site user, 302 to redirectUrl?jwt=<token>
 *   logout        -> 302 to the auth server's logout
 *
 * The API keeps no session: the state is the only thing that connects the two halves of a login.
 */
import { issueToken } from '#lib/auth/jwt';
import { badRequest } from '#lib/http/errors';
import { exchangeCode, fetchUserInfo, serverUrl } from '#lib/oauth/client';
import { authServerFor, DEFAULT_OAUTH_NAME } from '#lib/oauth/config';
import { publicBaseUrl } from '#lib/oauth/public-url';
import { checkRedirectUrl, withQuery } from '#lib/oauth/redirect-url';
import { signState, verifyState } from '#lib/oauth/state';
import type { Site } from '#lib/sites/service';
import { userForLogin } from '#lib/users/login';
import type { DigestLoginQuery, LoginQuery, LogoutQuery } from '#schemas/oauth';

/** OpenStad's configs may write `[[redirectUrl]]` into a path; we also set the parameter ourselves. */
const fillRedirect = (path: string, redirect: string) => path.replaceAll('[[redirectUrl]]', encodeURIComponent(redirect));

export const digestLoginPath = (siteId: number) => `/oauth/site/${siteId}/digest-login`;

export async function loginLocation(site: Site, query: LoginQuery, headers: Record<string, string | undefined>): Promise<string> {
  const server = authServerFor(site.id, site.config, query.useOauth);
  // Without a redirectUrl the site's configured after-login address is used, under the same rule.
  const target = query.redirectUrl ?? server.afterLoginRedirectUri;
  if (!target) throw badRequest('redirectUrl is required');
  const redirectUrl = checkRedirectUrl(target, site.config.allowedDomains).toString();
  const callback = publicBaseUrl(headers) + digestLoginPath(site.id);
  const state = await signState({ siteId: site.id, redirectUrl, oauth: server.name, callback });
  return serverUrl(server, fillRedirect(server.loginPath, callback), {
    response_type: 'code',
    client_id: server.clientId,
    redirect_uri: callback,
    state,
  }).toString();
}

export async function digestLoginLocation(site: Site, query: DigestLoginQuery): Promise<string> {
  const state = await verifyState(query.state, site.id);
  // Checked again: allowedDomains may have changed in the minutes since the login started.
  const redirectUrl = checkRedirectUrl(state.redirectUrl, site.config.allowedDomains);
  // The person cancelled or the auth server refused (RFC 6749 4.1.2.1): tell the frontend.
  if (query.error !== undefined) return withQuery(redirectUrl, { error: query.error });
  if (!query.code) throw badRequest('code is required');
  const server = authServerFor(site.id, site.config, state.oauth === DEFAULT_OAUTH_NAME ? undefined : state.oauth);
  const accessToken = await exchangeCode(server, query.code, state.callback);
  const authUser = await fetchUserInfo(server, accessToken);
  const user = await userForLogin(site, server, authUser);
  const jwt = await issueToken({ userId: user.id, siteId: site.id });
  return withQuery(redirectUrl, { jwt });
}

export function logoutLocation(site: Site, query: LogoutQuery): string {
  const server = authServerFor(site.id, site.config, query.useOauth);
  const redirect = query.redirectUrl ? checkRedirectUrl(query.redirectUrl, site.config.allowedDomains).toString() : undefined;
  return serverUrl(server, fillRedirect(server.logoutPath, redirect ?? ''), {
    client_id: server.clientId,
    ...(redirect ? { redirect_uri: redirect } : {}),
  }).toString();
}
