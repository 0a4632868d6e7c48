import { alsoAsPut, type Route } from '#lib/routes/route';
import { WILL_ANONYMIZE } from '#lib/routes/users/will-anonymize';
import { userParams } from '#schemas/user';

export const userWillAnonymizeAll = {
  operationId: 'userWillAnonymizeAll',
  method: 'GET',
  path: '/api/site/{siteId}/user/{userId}/will-anonymizeall',
  handler: 'functions/users/will-anonymize-all',
  dataAccess: 'read',
  params: userParams,
  tag: 'Users',
  summary: 'Preview anonymizing a user on every site the auth-server user has',
  description: WILL_ANONYMIZE,
  access: 'the owner, moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'AnonymizeReport' },
  errors: [403],
} satisfies Route;

export const userWillAnonymizeAllPut = /* @__PURE__ */ alsoAsPut(userWillAnonymizeAll);
