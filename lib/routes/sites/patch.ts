import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { patchSiteBody } from '#schemas/site';

export const sitePatch = {
  operationId: 'sitePatch',
  method: 'PATCH',
  path: '/api/site/{siteId}',
  handler: 'functions/sites/patch',
  dataAccess: 'write',
  params: siteParams,
  body: patchSiteBody,
  bodyMediaType: 'application/merge-patch+json',
  tag: 'Sites',
  summary: 'Change some settings of one site (JSON Merge Patch)',
  description:
    'A JSON Merge Patch (RFC 7396, `Content-Type: application/merge-patch+json`; any other type is a 415): only the keys sent change, ' +
    'objects merge key by key at any depth, `null` removes a key, arrays and other values replace. So `{"config": {"allowedDomains": ["city.example"]}}` ' +
    'changes the allowed origins and keeps everything else of the config. The merged config is checked as a whole (400 naming the path). ' +
    'A secret sent as `********` keeps its stored value. A change made by another request at the same time is never lost: the patch is applied to the newest config, or 409.',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'Site' },
  errors: [403, 409],
} satisfies Route;
