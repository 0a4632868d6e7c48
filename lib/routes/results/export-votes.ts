import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { exportVotesQuery } from '#schemas/results';

export const exportVotes = {
  operationId: 'exportVotes',
  method: 'GET',
  path: '/api/site/{siteId}/export/votes',
  handler: 'functions/results/export-votes',
  dataAccess: 'read',
  // Long exports: just under API Gateway's 30 s integration limit.
  timeout: 29,
  params: siteParams,
  query: exportVotesQuery,
  tag: 'Results',
  summary: 'Export the votes (Pabulib or CSV)',
  description: '`format=pabulib`: `text/plain` `.pb` file (META, PROJECTS, VOTES; count and budgeting types). `format=csv`: `text/csv`, header row `id,userId,ideaId,opinion,createdAt`, one row per vote. Long exports come in pages of a few MB: the next one is in the `Link: <...>; rel="next"` header (`?cursor=`); the pages concatenated are the whole file.',
  access: "a service token or the site's admin",
  auth: 'required',
  success: { status: 200, schema: 'PabulibOrCsv' },
  errors: [403],
} satisfies Route;
