import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

export const resultsGet = {
  operationId: 'resultsGet',
  method: 'GET',
  path: '/api/site/{siteId}/results',
  handler: 'functions/results/get',
  // A moderator's read computes stale results and stores them (docs/results.md).
  dataAccess: 'write',
  params: siteParams,
  tag: 'Results',
  summary: 'The results of the vote',
  description:
    'A stored snapshot (`computedAt`: when its ballots were read; `ballots` counted; `checkpoint`: the signed checkpoint whose log holds exactly those ballots, or null), recomputed in the background when ballots change: ranking for every vote type; greedy and Equal Shares winners for budgeting types; the same per theme for per-theme types. ' +
    'Carries a strong `ETag`; `If-None-Match` with it answers **304** without a body. Public results read without a token carry `Cache-Control: public, max-age=60, stale-while-revalidate=300`. ' +
    'A moderator\'s (or service token\'s) request gets fresh results: computed then when stale, or **202** with `Location` and `Retry-After` when that takes longer than the request may; anyone else gets 202 only before the first snapshot.',
  access: 'moderators and above always; everyone when `votes.isViewable` or once the project has ended',
  auth: 'optional',
  success: { status: 200, schema: 'Results' },
  errors: [403],
} satisfies Route;
