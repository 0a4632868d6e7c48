import type { Route } from '#lib/routes/route';
import { createSiteBody } from '#schemas/site';

export const siteCreate = {
  operationId: 'siteCreate',
  method: 'POST',
  path: '/api/site',
  handler: 'functions/sites/create',
  dataAccess: 'write',
  body: createSiteBody,
  tag: 'Sites',
  summary: 'Create a site',
  access: 'a service token (a user JWT gets 403)',
  auth: 'required',
  success: { status: 201, schema: 'Site', location: '/api/site/{siteId}' },
  errors: [403],
} satisfies Route;
