/**
 * The login flow of CONTRACT "Login" (OAuth 2.0 authorization code grant, RFC 6749 4.1):
 *
 *   login         -> 302 to the auth server with a signed `state` that carries the redirectUrl, and
 *                    the login cookie whose nonce the state is bound to
 *   digest-login  <- the auth server's redirect with `code` and `state`: check the state, its cookie
 *                    and that it is unused (then it is used), exchange the
 *                    code, read the user, create/refresh the site user, 302 to redirectUrl with
 *                    the JWT in its query (`?jwt=`) or, when the oauth entry says `jwtIn: fragment`,
 *                    in its fragment (`#jwt=`, which never reaches a server's logs)
 *   logout        -> 302 to the auth server's logout
 *
 * The API keeps no session: the state and its cookie are what connect the two halves of a login.
 */
import { issueToken } from '#lib/auth/jwt';
import { badRequest } from '#lib/errors';
import { exchangeCode, fetchUserInfo, serverUrl } from '#lib/auth-server/client';
import { authServerFor, DEFAULT_OAUTH_NAME, type AuthServerConfig } from '#lib/auth-server/config';
import { clearLoginCookie, loginCookie, setLoginCookie } from '#lib/oauth/login-cookie';
import { publicBaseUrl } from '#lib/oauth/public-url';
import { checkRedirectUrl, TOKEN_PARAM, withFragment, withQuery } from '#lib/oauth/redirect-url';
import { assertStateBrowser, newLoginNonce, signState, STATE_TTL_SECONDS, verifyState } from '#lib/oauth/state';
import { markLoginStateUsed } from '#lib/store/login/login-states';
import type { Site } from '#lib/sites/site';
import { userForLogin } from '#lib/users/login';
import type { DigestLoginQuery, LoginQuery, LogoutQuery } from '#schemas/oauth';

/** OpenStad's configs may write `[[redirectUrl]]` into a path; we also set the parameter ourselves. */
const fillRedirect = (path: string, redirect: string) => path.replaceAll('[[redirectUrl]]', encodeURIComponent(redirect));

export const digestLoginPath = (siteId: number) => `/oauth/site/${siteId}/digest-login`;

/** A 302 target and the cookies that go with it. */
interface LoginRedirect {
  location: string;
  cookies: string[];
}

/**
 * Where a login sends the person back (CONTRACT "Decided details, lifecycle"): the `redirectUrl` sent,
 * else `cms.after-login-redirect-uri`, else the oauth entry's `after-login-redirect-uri`, each under the
 * allowedDomains rule; none: 400.
 */
function loginTarget(site: Site, server: AuthServerConfig, checked: URL | undefined): string {
  if (checked) return checked.toString();
  const cms = site.config.cms?.['after-login-redirect-uri'];
  if (cms) return checkRedirectUrl(cms, site.config.allowedDomains, 'cms.after-login-redirect-uri').toString();
  if (server.afterLoginRedirectUri) {
    return checkRedirectUrl(server.afterLoginRedirectUri, site.config.allowedDomains, `oauth.${server.name}.after-login-redirect-uri`).toString();
  }
  throw badRequest('redirectUrl is required (the site configures no after-login-redirect-uri)');
}

export async function loginStart(site: Site, query: LoginQuery, headers: Record<string, string | undefined>): Promise<LoginRedirect> {
  // A bad redirectUrl is the caller's 400 before anything about the site's auth servers is said.
  const checked = query.redirectUrl !== undefined ? checkRedirectUrl(query.redirectUrl, site.config.allowedDomains) : undefined;
  const server = authServerFor(site.id, site.config, query.useOauth);
  const redirectUrl = loginTarget(site, server, checked);
  const callback = publicBaseUrl(headers) + digestLoginPath(site.id);
  const nonce = newLoginNonce();
  const state = await signState({ siteId: site.id, redirectUrl, oauth: server.name, callback }, STATE_TTL_SECONDS, nonce);
  const location = serverUrl(server, fillRedirect(server.loginPath, callback), {
    response_type: 'code',
    client_id: server.clientId,
    redirect_uri: callback,
    state,
  }).toString();
  return { location, cookies: [setLoginCookie(nonce, callback)] };
}

export async function digestLogin(site: Site, query: DigestLoginQuery, cookies: Record<string, string>): Promise<LoginRedirect> {
  const state = await verifyState(query.state, site.id);
  assertStateBrowser(state, cookies[loginCookie(state.callback).name]);
  // Single use: of two callbacks with one state (a replay, or a race), exactly one gets past here.
  if (!(await markLoginStateUsed(site.id, state.nonceHash, state.exp))) {
    throw badRequest('This login state was already used; please start the login again');
  }
  const done = (location: string): LoginRedirect => ({ location, cookies: [clearLoginCookie(state.callback)] });
  // Checked again: allowedDomains may have changed in the minutes since the login started.
  const redirectUrl = checkRedirectUrl(state.redirectUrl, site.config.allowedDomains);
  // The person cancelled or the auth server refused (RFC 6749 4.1.2.1): tell the frontend.
  if (query.error !== undefined) return done(withQuery(redirectUrl, { error: query.error }));
  if (!query.code) throw badRequest('code is required');
  const server = authServerFor(site.id, site.config, state.oauth === DEFAULT_OAUTH_NAME ? undefined : state.oauth);
  const accessToken = await exchangeCode(server, query.code, state.callback);
  const authUser = await fetchUserInfo(server, accessToken);
  const user = await userForLogin(site, server, authUser);
  const jwt = await issueToken({ userId: user.id, siteId: site.id });
  const handedBack = { [TOKEN_PARAM]: jwt };
  return done(server.jwtIn === 'fragment' ? withFragment(redirectUrl, handedBack) : withQuery(redirectUrl, handedBack));
}

export function logoutLocation(site: Site, query: LogoutQuery): string {
  const redirect = query.redirectUrl ? checkRedirectUrl(query.redirectUrl, site.config.allowedDomains).toString() : undefined;
  const server = authServerFor(site.id, site.config, query.useOauth);
  return serverUrl(server, fillRedirect(server.logoutPath, redirect ?? ''), {
    client_id: server.clientId,
    ...(redirect ? { redirect_uri: redirect } : {}),
  }).toString();
}
