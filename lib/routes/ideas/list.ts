import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listIdeasQuery } from '#schemas/idea';

export const ideaList = {
  operationId: 'ideaList',
  method: 'GET',
  path: '/api/site/{siteId}/idea',
  handler: 'functions/ideas/list',
  dataAccess: 'read',
  params: siteParams,
  query: listIdeasQuery,
  tag: 'Ideas',
  summary: 'List the ideas of a site',
  access: 'everyone; `sort=votes_desc|votes_asc` only for callers who see the vote counts (`votes.isViewable`, or moderators and above)',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'IdeaList' },
  errors: [403],
  errorNotes: { 403: 'An order by votes (`sort=votes_desc|votes_asc`) asked by a caller who may not see the vote counts: the order would show the hidden ranking.' },
} satisfies Route;
