import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listCheckpointsQuery } from '#schemas/results';

export const voteCheckpointList = {
  operationId: 'voteCheckpointList',
  method: 'GET',
  path: '/api/site/{siteId}/vote-checkpoint',
  handler: 'functions/results/checkpoints',
  dataAccess: 'read',
  params: siteParams,
  query: listCheckpointsQuery,
  tag: 'Results',
  summary: 'List the published vote checkpoints',
  description: 'Oldest first. Written by the `vote-checkpoints` job when the ballots changed; `npm run verify-votes -- --site N` checks the latest.',
  access: 'moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'VoteCheckpointList' },
  errors: [403],
} satisfies Route;
