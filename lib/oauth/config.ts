/**
 * Which auth server a site uses, from `config.oauth.<name>` (CONTRACT "Login": `default` unless
 * `useOauth` names another), with OpenStad's default paths filled in.
 */
import { badGateway, badRequest } from '#lib/http/errors';
import type { SiteConfig } from '#lib/sites/config-defaults';
import type { OauthClientConfig } from '#schemas/site-config';

export interface AuthServerConfig {
  /** The `config.oauth` entry name. */
  name: string;
  /** `auth-server-url`, normalised (no trailing slash), so it is the same string in every site's user links. */
  url: string;
  clientId: string;
  clientSecret: string;
  loginPath: string;
  exchangeCodePath: string;
  userPath: string;
  logoutPath: string;
  afterLoginRedirectUri: string | undefined;
}

export const DEFAULT_OAUTH_NAME = 'default';

/** Longest auth-server URL we link users to: it is part of DynamoDB keys (see lib/store/users.ts). */
const MAX_URL_LENGTH = 512;

const misconfigured = (siteId: number, name: string, what: string) =>
  badGateway(`The auth server of site ${siteId} is not configured: config.oauth.${name} ${what}`);

/** `auth-server-url` in one canonical spelling: origin plus path, without trailing slashes. */
export function normaliseAuthServerUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  const normalised = url.origin + url.pathname.replace(/\/+$/, '');
  return normalised.length <= MAX_URL_LENGTH ? normalised : undefined;
}

const entries = (config: SiteConfig): Record<string, OauthClientConfig> =>
  (config.oauth ?? {}) as Record<string, OauthClientConfig>;

function resolve(siteId: number, name: string, entry: OauthClientConfig): AuthServerConfig {
  const url = entry['auth-server-url'] ? normaliseAuthServerUrl(entry['auth-server-url']) : undefined;
  if (!url) throw misconfigured(siteId, name, 'needs a valid auth-server-url');
  const clientId = entry['auth-client-id'];
  const clientSecret = entry['auth-client-secret'];
  if (!clientId || !clientSecret) throw misconfigured(siteId, name, 'needs auth-client-id and auth-client-secret');
  return {
    name,
    url,
    clientId,
    clientSecret,
    loginPath: entry['auth-server-login-path'] || '/dialog/authorize',
    exchangeCodePath: entry['auth-server-exchange-code-path'] || '/oauth/token',
    userPath: entry['auth-server-get-user-path'] || '/api/userinfo',
    logoutPath: entry['auth-server-logout-path'] || '/logout',
    afterLoginRedirectUri: entry['after-login-redirect-uri'] || undefined,
  };
}

/**
 * The auth server a login uses. A `useOauth` that names no entry is the client's mistake (400); a
 * site without a usable `default` entry is a configuration fault, reported as 502 like any other
 * failure to reach the auth server.
 */
export function authServerFor(siteId: number, config: SiteConfig, useOauth?: string): AuthServerConfig {
  const name = useOauth ?? DEFAULT_OAUTH_NAME;
  const entry = Object.hasOwn(entries(config), name) ? entries(config)[name] : undefined;
  if (!entry) {
    if (useOauth !== undefined) throw badRequest(`Site ${siteId} has no oauth configuration named "${useOauth}"`);
    throw misconfigured(siteId, name, 'is missing');
  }
  return resolve(siteId, name, entry);
}

/**
 * The site's default auth server, or undefined when the site has none at all (no `oauth.default` or
 * no `auth-server-url` in it): such a site keeps its users locally only.
 */
export function defaultAuthServerOrNone(siteId: number, config: SiteConfig): AuthServerConfig | undefined {
  const entry = entries(config)[DEFAULT_OAUTH_NAME];
  if (!entry?.['auth-server-url']) return undefined;
  return resolve(siteId, DEFAULT_OAUTH_NAME, entry);
}

/** The entry of this site that talks to the auth server a user is linked to (by normalised URL). */
export function authServerByUrl(siteId: number, config: SiteConfig, url: string): AuthServerConfig {
  const preferred = [DEFAULT_OAUTH_NAME, ...Object.keys(entries(config)).filter((n) => n !== DEFAULT_OAUTH_NAME)];
  for (const name of preferred) {
    const entry = entries(config)[name];
    const entryUrl = entry?.['auth-server-url'] ? normaliseAuthServerUrl(entry['auth-server-url']) : undefined;
    if (entry && entryUrl === url) return resolve(siteId, name, entry);
  }
  throw badGateway(`The auth server this user is linked to (${url}) is no longer configured for site ${siteId}`);
}
