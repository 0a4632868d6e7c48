import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { deleteSiteQuery } from '#schemas/site';

export const siteDelete = {
  operationId: 'siteDelete',
  method: 'DELETE',
  path: '/api/site/{siteId}',
  handler: 'functions/sites/delete',
  dataAccess: 'write',
  params: siteParams,
  query: deleteSiteQuery,
  tag: 'Sites',
  summary: 'Delete one site',
  description: 'A site whose project has not ended while it still has users who are not anonymized: 409, unless `force=1` with a service token.',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'Deleted' },
  errors: [403, 409],
} satisfies Route;
