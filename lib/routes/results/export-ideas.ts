import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { exportIdeasQuery } from '#schemas/results';

export const exportIdeas = {
  operationId: 'exportIdeas',
  method: 'GET',
  path: '/api/site/{siteId}/export/ideas',
  handler: 'functions/results/export-ideas',
  dataAccess: 'read',
  // Long exports: just under API Gateway's 30 s integration limit.
  timeout: 29,
  params: siteParams,
  query: exportIdeasQuery,
  tag: 'Results',
  summary: 'Export the ideas with their tallies (CSV)',
  description: '`text/csv`, header row `id,title,status,budget,theme,yes,no,createdAt`. Paged like the vote export (`Link` header, `?cursor=`).',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'Csv' },
  errors: [403],
} satisfies Route;
