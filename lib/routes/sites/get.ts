import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

export const siteGet = {
  operationId: 'siteGet',
  method: 'GET',
  path: '/api/site/{siteId}',
  handler: 'functions/sites/get',
  dataAccess: 'read',
  params: siteParams,
  tag: 'Sites',
  summary: 'View one site',
  access: 'everyone (config redacted; editors and above see all)',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'Site' },
} satisfies Route;
