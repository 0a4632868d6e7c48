import type { Route } from '#lib/routes/route';
import { pageQuerySchema } from '#schemas/common';

export const siteList = {
  operationId: 'siteList',
  method: 'GET',
  path: '/api/site',
  handler: 'functions/sites/list',
  dataAccess: 'read',
  query: pageQuerySchema,
  tag: 'Sites',
  summary: 'List all sites',
  access: 'everyone (config redacted; editors and above see all)',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'SiteList' },
} satisfies Route;
