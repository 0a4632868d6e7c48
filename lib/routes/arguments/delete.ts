import type { Route } from '#lib/routes/route';
import { argumentParams } from '#schemas/argument';

export const argumentDelete = {
  operationId: 'argumentDelete',
  method: 'DELETE',
  path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}',
  handler: 'functions/arguments/delete',
  dataAccess: 'write',
  params: argumentParams,
  tag: 'Arguments',
  summary: 'Delete one argument',
  access: 'moderators and above, the owner',
  auth: 'required',
  success: { status: 200, schema: 'Deleted' },
  errors: [403],
} satisfies Route;
