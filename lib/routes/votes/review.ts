import type { Route } from '#lib/routes/route';
import { voteParams, reviewVoteBody } from '#schemas/votes';

export const voteReview = {
  operationId: 'voteReview',
  method: 'PUT',
  path: '/api/site/{siteId}/vote/{voteId}',
  handler: 'functions/votes/review',
  // Changes ballots: seals the ballot's next version with the chain key.
  dataAccess: 'ballot',
  params: voteParams,
  body: reviewVoteBody,
  bodyRequired: false,
  tag: 'Votes',
  summary: 'Reject a vote, or reinstate it',
  description:
    "`{\"rejected\": true}` takes the vote out of every count (the idea's tallies, the results, the exports); `false` counts it again; without `rejected` nothing changes and the answer is the vote as it stands. Setting the state a vote has writes nothing. Under `likes` the decision covers the one vote; under every ballot type (count, budgeting, per theme) the voter's whole ballot, which is one choice. Each decision is the ballot's next version in the vote log, sealed and chained like a vote round's, so `npm run verify-votes` replays it. A rejected vote stays listed to moderators (and its voter) with `rejected: true`.",
  access: 'moderators and above',
  auth: 'required',
  success: { status: 200, description: 'The vote as it stands after the decision', schema: 'Vote' },
  errors: [403, 409],
  errorNotes: { 409: "Reinstating a vote whose idea is being deleted, or the voter's ballot kept changing." },
} satisfies Route;
