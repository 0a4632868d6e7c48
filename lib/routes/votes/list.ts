import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listVotesQuery } from '#schemas/votes';

export const voteList = {
  operationId: 'voteList',
  method: 'GET',
  path: '/api/site/{siteId}/vote',
  handler: 'functions/votes/list',
  dataAccess: 'read',
  params: siteParams,
  query: listVotesQuery,
  tag: 'Votes',
  summary: 'List the votes of a site',
  access: 'everyone when `votes.isViewable`, else moderators and above; `userId` (field and filter) for moderators and above only',
  auth: 'optional',
  success: { status: 200, schema: 'VoteList' },
  errors: [403],
} satisfies Route;
