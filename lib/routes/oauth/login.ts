import { OAUTH_400, OAUTH_404, OAUTH_502 } from '#lib/routes/oauth/notes';
import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { loginQuery } from '#schemas/oauth';

export const oauthLogin = {
  operationId: 'oauthLogin',
  method: 'GET',
  path: '/oauth/site/{siteId}/login',
  handler: 'functions/oauth/login',
  dataAccess: 'door',
  params: siteParams,
  query: loginQuery,
  rateLimit: 'login',
  tag: 'Login',
  summary: 'Start a login',
  description: "`redirectUrl` must be absolute and its host listed in `allowedDomains` (else 400); without one, `cms.after-login-redirect-uri`, then the oauth entry's `after-login-redirect-uri`. A site without the oauth entry asked for: 404. Sets the HttpOnly login cookie that digest-login requires.",
  access: 'everyone',
  auth: 'none',
  success: { status: 302, description: 'To the auth server (`config.oauth.<useOauth or default>`), with `response_type=code`, `client_id`, `redirect_uri` and a signed `state`' },
  errors: [502],
  errorNotes: { 400: OAUTH_400, 404: OAUTH_404, 502: OAUTH_502 },
} satisfies Route;
