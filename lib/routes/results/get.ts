import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

export const resultsGet = {
  operationId: 'resultsGet',
  method: 'GET',
  path: '/api/site/{siteId}/results',
  handler: 'functions/results/get',
  dataAccess: 'read',
  params: siteParams,
  tag: 'Results',
  summary: 'The results of the vote',
  description: 'Computed from the ballots on each call (`computedAt`, `ballots` counted): ranking for every vote type; greedy and Equal Shares winners for budgeting types; the same per theme for per-theme types.',
  access: 'moderators and above always; everyone when `votes.isViewable` or once `project.projectHasEnded`',
  auth: 'optional',
  success: { status: 200, schema: 'Results' },
  errors: [403],
} satisfies Route;
