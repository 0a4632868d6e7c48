import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { castVotesBody } from '#schemas/votes';

export const voteCast = {
  operationId: 'voteCast',
  method: 'POST',
  path: '/api/site/{siteId}/vote',
  handler: 'functions/votes/cast',
  // Changes ballots: seals vote log entries with the chain key.
  dataAccess: 'ballot',
  params: siteParams,
  body: castVotesBody,
  tag: 'Votes',
  summary: 'Cast a round of votes',
  description: 'The rules of `config.votes` apply: likes toggle; count and budgeting replace or refuse (`withExisting`); the number of ideas, the budget and the per-theme limits are checked. 403 while voting is closed, 409 when already voted with `withExisting` = `error`. An unknown idea in a round is a 400.',
  access: '`votes.requiredUserRole` or higher',
  auth: 'required',
  headers: [
    {
      name: 'Idempotency-Key',
      description: 'A retried round with the same key gets the first answer back (header `Idempotent-Replayed: true`) and writes nothing; the same key with another round is a 409.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
    },
  ],
  success: { status: 200, description: "The caller's current votes on the site", schema: 'VoteRound' },
  errors: [403, 409],
  errorNotes: { 403: 'Voting is closed (`votes.isActive`, `isActiveFrom` / `isActiveTo`), the role is below `votes.requiredUserRole`, or the token is a service token (it has no user to vote as).' },
} satisfies Route;
