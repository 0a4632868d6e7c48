import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { digestLoginQuery } from '#schemas/oauth';

export const oauthDigestLogin = {
  operationId: 'oauthDigestLogin',
  method: 'GET',
  path: '/oauth/site/{siteId}/digest-login',
  handler: 'functions/oauth/digest-login',
  dataAccess: 'write',
  params: siteParams,
  query: digestLoginQuery,
  rateLimit: 'digest-login',
  tag: 'Login',
  summary: 'Finish a login (the auth server redirects here)',
  description: 'Needs the login cookie of the browser that started the login; a state works once (a replay is 400).',
  access: 'everyone',
  auth: 'none',
  success: { status: 302, description: 'To the `redirectUrl` of the login, with `jwt=<token>` added to its query' },
  errors: [409, 502],
  errorNotes: { 400: 'No `code`, a `state` that is invalid, expired, of another site or already used, no login cookie of this browser, or a code the auth server refuses.', 404: 'An unknown site, or the `config.oauth` entry the login started with is gone (the message names the key).' },
} satisfies Route;
