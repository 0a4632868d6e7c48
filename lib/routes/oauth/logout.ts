import { OAUTH_404, OAUTH_502 } from '#lib/routes/oauth/notes';
import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { logoutQuery } from '#schemas/oauth';

export const oauthLogout = {
  operationId: 'oauthLogout',
  method: 'GET',
  path: '/oauth/site/{siteId}/logout',
  handler: 'functions/oauth/logout',
  dataAccess: 'read',
  params: siteParams,
  query: logoutQuery,
  tag: 'Login',
  summary: 'Log out at the auth server',
  access: 'everyone',
  auth: 'none',
  success: { status: 302, description: "To the auth server's logout path" },
  errors: [502],
  errorNotes: { 400: 'A `redirectUrl` that is not absolute or whose host is not in `allowedDomains`.', 404: OAUTH_404, 502: OAUTH_502 },
} satisfies Route;
