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
  summary: 'Update one site (config replaced whole)',
  description:
    'The fields sent replace the stored ones; fields not sent stay. `config`, when sent, **replaces the whole config**: a key left out is removed ' +
    '(so `{"config": {"allowedDomains": [...]}}` drops the login settings). To change some settings only, use `PATCH` (a JSON Merge Patch). ' +
    'A secret sent as `********` (what reads show) keeps its stored value.',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'Site' },
  errors: [403, 409],
} satisfies Route;
