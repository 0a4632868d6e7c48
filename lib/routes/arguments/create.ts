import type { Route } from '#lib/routes/route';
import { createArgumentBody, ideaArgumentsParams } from '#schemas/argument';

export const argumentCreate = {
  operationId: 'argumentCreate',
  method: 'POST',
  path: '/api/site/{siteId}/idea/{ideaId}/argument',
  handler: 'functions/arguments/create',
  dataAccess: 'write',
  params: ideaArgumentsParams,
  body: createArgumentBody,
  tag: 'Arguments',
  summary: 'Create an argument',
  access: 'members and above unless `arguments.isClosed` (moderators and above always)',
  auth: 'required',
  success: { status: 201, schema: 'Argument', location: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}' },
  errors: [403],
} satisfies Route;
