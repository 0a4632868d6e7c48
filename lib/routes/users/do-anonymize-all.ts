import type { Route } from '#lib/routes/route';
import { DO_ANONYMIZE } from '#lib/routes/users/do-anonymize';
import { userParams } from '#schemas/user';

export const userDoAnonymizeAll = {
  operationId: 'userDoAnonymizeAll',
  method: 'PUT',
  path: '/api/site/{siteId}/user/{userId}/do-anonymizeall',
  handler: 'functions/users/do-anonymize-all',
  // Changes ballots: seals vote log entries with the chain key.
  dataAccess: 'ballot',
  timeout: 20,
  params: userParams,
  tag: 'Users',
  summary: 'Anonymize a user on every site the auth-server user has',
  description: DO_ANONYMIZE,
  access: 'the owner, moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'AnonymizeReport' },
  errors: [403, 409, 502],
  errorNotes: { 409: 'The user or their votes kept changing while being anonymized; try again.' },
} satisfies Route;
