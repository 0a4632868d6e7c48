/** What the login routes' error statuses mean, shared by login, digest-login and logout. */

// The statuses of an unknown `useOauth`, a bad `redirectUrl` (lib/auth-server/config.ts, redirect-url.ts) and a half-configured entry.
export const OAUTH_404 = 'An unknown site, or the site has no `config.oauth.<useOauth or default>` entry (the message names the key).';
export const OAUTH_400 =
  'A `redirectUrl` that is not absolute, not http(s), carries credentials or whose host is not in `allowedDomains`; no `redirectUrl` while the site configures no after-login redirect; a malformed `useOauth`.';
export const OAUTH_502 = 'The oauth entry lacks `auth-server-url`, `auth-client-id` or `auth-client-secret`.';
