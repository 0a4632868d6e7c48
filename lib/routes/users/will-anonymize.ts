import { alsoAsPut, type Route } from '#lib/routes/route';
import { userParams } from '#schemas/user';

// Anonymization (spec "User" rules 1-4): the previews answer GET and PUT (one function each), the
// executions PUT only.
export const WILL_ANONYMIZE =
  'Changes nothing. Answers the ideas and arguments that would be anonymized, the votes that would be removed, the users that would be anonymized and the sites related to them.';
export const userWillAnonymize = {
  operationId: 'userWillAnonymize',
  method: 'GET',
  path: '/api/site/{siteId}/user/{userId}/will-anonymize',
  handler: 'functions/users/will-anonymize',
  dataAccess: 'read',
  params: userParams,
  tag: 'Users',
  summary: 'Preview anonymizing a user on this site',
  description: WILL_ANONYMIZE,
  access: 'the owner, moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'AnonymizeReport' },
  errors: [403],
} satisfies Route;

export const userWillAnonymizePut = /* @__PURE__ */ alsoAsPut(userWillAnonymize);
