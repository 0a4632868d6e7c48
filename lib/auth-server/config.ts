/**
 * Which auth server a site uses, from `config.oauth.<name>` (CONTRACT "Login": `default` unless
 * `useOauth` names another), with OpenStad's default paths filled in.
 */
import { badGateway, notFound, type ErrorDetail } from '#lib/errors';
import { authServerUrlProblem } from '#lib/auth-server/address-policy';
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
  /** Where digest-login hands the JWT back: `?jwt=` (absent: the default, OpenStad's clients read it) or `#jwt=` (kept out of logs). */
  jwtIn?: 'query' | 'fragment';
}

export const DEFAULT_OAUTH_NAME = 'default';

/** Longest auth-server URL we link users to: it is part of DynamoDB keys (see lib/store/users/users.ts). */
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
    ...(entry.jwtIn ? { jwtIn: entry.jwtIn } : {}),
  };
}

/**
 * The auth server a login or logout uses. A site without the entry asked for (`useOauth`, else
 * `default`) answers 404 naming the key (CONTRACT "Decided details, lifecycle"); an entry that is
 * there but unusable is a configuration fault, reported as 502.
 */
export function authServerFor(siteId: number, config: SiteConfig, useOauth?: string): AuthServerConfig {
  const name = useOauth ?? DEFAULT_OAUTH_NAME;
  const entry = Object.hasOwn(entries(config), name) ? entries(config)[name] : undefined;
  if (!entry) throw notFound(`Site ${siteId} has no config.oauth.${name}`);
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

/**
 * The `auth-server-url` rule checked when a config is saved (CONTRACT "Decided details, security"):
 * one detail per entry whose URL is refused on this stage, with its config path.
 */
export function authServerUrlDetails(config: unknown, isLocalStage: boolean): ErrorDetail[] {
  const oauth = (config as { oauth?: unknown } | undefined)?.oauth;
  if (!oauth || typeof oauth !== 'object') return [];
  const details: ErrorDetail[] = [];
  for (const [name, entry] of Object.entries(oauth as Record<string, unknown>)) {
    const url = (entry as Record<string, unknown> | null)?.['auth-server-url'];
    if (typeof url !== 'string' || url === '') continue;
    const problem = authServerUrlProblem(url, isLocalStage);
    if (problem) details.push({ path: `config.oauth.${name}.auth-server-url`, message: problem });
  }
  return details;
}
