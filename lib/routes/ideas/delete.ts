import type { Route } from '#lib/routes/route';
import { ideaParams } from '#schemas/idea';

export const ideaDelete = {
  operationId: 'ideaDelete',
  method: 'DELETE',
  path: '/api/site/{siteId}/idea/{ideaId}',
  handler: 'functions/ideas/delete',
  // Changes ballots: seals vote log entries with the chain key.
  dataAccess: 'ballot',
  params: ideaParams,
  tag: 'Ideas',
  summary: 'Delete one idea, with its arguments and votes',
  access: 'as update',
  auth: 'required',
  success: { status: 200, schema: 'Deleted' },
  errors: [403],
} satisfies Route;
