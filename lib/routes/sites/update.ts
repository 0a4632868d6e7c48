import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { updateSiteBody } from '#schemas/site';

export const siteUpdate = {
  operationId: 'siteUpdate',
  method: 'PUT',
  path: '/api/site/{siteId}',
  handler: 'functions/sites/update',
  dataAccess: 'write',
  params: siteParams,
  body: updateSiteBody,
  tag: 'Sites',
  summary: 'Update one site',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'Site' },
  errors: [403],
} satisfies Route;
