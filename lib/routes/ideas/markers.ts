import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listMarkersQuery } from '#schemas/discovery';

export const ideaMarkerList = {
  operationId: 'ideaMarkerList',
  method: 'GET',
  path: '/api/site/{siteId}/idea-marker',
  handler: 'functions/ideas/markers',
  dataAccess: 'read',
  params: siteParams,
  query: listMarkersQuery,
  tag: 'Ideas',
  summary: 'Map markers of the ideas that have a location',
  description: 'The light records a map needs, `{id, title, status, location, tags}`, with the same filters, sorts and paging as the idea list (pageSize up to 500). A page may hold fewer records than `pageSize`; only `nextCursor: null` means the end.',
  access: 'everyone; `sort=votes_desc|votes_asc` only for callers who see the vote counts (`votes.isViewable`, or moderators and above)',
  auth: 'optional',
  cache: 'public',
  success: { status: 200, schema: 'IdeaMarkerList' },
  errors: [403],
  errorNotes: { 403: 'An order by votes (`sort=votes_desc|votes_asc`) asked by a caller who may not see the vote counts: the order would show the hidden ranking.' },
} satisfies Route;
