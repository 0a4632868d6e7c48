import type { Route } from '#lib/routes/route';
import { userParams } from '#schemas/user';

export const DO_ANONYMIZE =
  'Removes personal data, replaces first and last name with `config.users.anonymize`, removes the votes while voting is active, ' +
  'unlinks the auth-server user and deletes it there when no other site has it. Answers the records as they were before.';


export const userDoAnonymize = {
  operationId: 'userDoAnonymize',
  method: 'PUT',
  path: '/api/site/{siteId}/user/{userId}/do-anonymize',
  handler: 'functions/users/do-anonymize',
  // Changes ballots: seals vote log entries with the chain key.
  dataAccess: 'ballot',
  // The auth-server delete (up to 4 s) plus the writes of every site may need more than the default 10 s.
  timeout: 20,
  params: userParams,
  tag: 'Users',
  summary: 'Anonymize a user on this site',
  description: DO_ANONYMIZE,
  access: 'the owner, moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'AnonymizeReport' },
  errors: [403, 409, 502],
  errorNotes: { 409: 'The user or their votes kept changing while being anonymized; try again.' },
} satisfies Route;
