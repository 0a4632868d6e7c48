import type { Route } from '#lib/routes/route';
import { argumentParams, updateArgumentBody } from '#schemas/argument';

export const argumentUpdate = {
  operationId: 'argumentUpdate',
  method: 'PUT',
  path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}',
  handler: 'functions/arguments/update',
  dataAccess: 'write',
  params: argumentParams,
  body: updateArgumentBody,
  tag: 'Arguments',
  summary: 'Update one argument',
  access: 'moderators and above, the owner',
  auth: 'required',
  success: { status: 200, schema: 'Argument' },
  errors: [403],
} satisfies Route;
