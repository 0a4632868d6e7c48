import type { Route } from '#lib/routes/route';
import { argumentParams } from '#schemas/argument';

export const argumentVote = {
  operationId: 'argumentVote',
  method: 'POST',
  path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}/vote',
  handler: 'functions/arguments/vote',
  dataAccess: 'write',
  params: argumentParams,
  tag: 'Arguments',
  summary: "Toggle the caller's vote on an argument",
  description: 'Needs no body. Answers the argument with `yes` and `hasUserVoted`.',
  access: 'members and above',
  auth: 'required',
  success: { status: 200, schema: 'Argument' },
  errors: [403, 409],
  errorNotes: { 403: 'The role is below member, or the token is a service token (it has no user to vote as).' },
} satisfies Route;
