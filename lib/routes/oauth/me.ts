import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

export const oauthMe = {
  operationId: 'oauthMe',
  method: 'GET',
  path: '/oauth/site/{siteId}/me',
  handler: 'functions/oauth/me',
  dataAccess: 'read',
  params: siteParams,
  tag: 'Login',
  summary: "The caller's own user record",
  access: 'a user token of this site',
  auth: 'required',
  success: { status: 200, schema: 'User' },
  errorNotes: { 401: "No, an invalid or expired token, a token of another site, or a service token (it is no user of the site, so it has no own record); or the site's Basic Auth missing or wrong." },
} satisfies Route;
