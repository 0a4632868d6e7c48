import { apiHandler } from '#lib/http/handler';
import { voteCast } from '#lib/routes/votes/cast';
import { ok } from '#lib/http/response';
import { authorizeVoter, castReadPlan, castVotes } from '#lib/votes/cast';
import { invalidRound } from '#lib/votes/errors';
import { idempotencyKeyOf } from '#lib/votes/idempotency';

/**
 * A vote round is two DynamoDB requests: one consistent read of everything it needs, one
 * transaction. Who may vote is checked before the body (401/403 before a 400 describing a body the caller may not
 * send); a rejected round is a 400 whose message repeats the first problems (invalidRound).
 */
export const handler = apiHandler(
  {
    ...voteCast,
    authorize: authorizeVoter,
    invalidBody: invalidRound,
    // The ballot, the stored answer and the round's tallies join the site and caller in one read.
    prefetch: ({ siteId, userId, body, headers }) => (userId === undefined ? undefined : castReadPlan(siteId, userId, body, headers)),
  },
  async ({ site, caller, body, headers }) => {
    const result = await castVotes({ site, caller, round: body, idempotencyKey: idempotencyKeyOf(headers) });
    return ok(result.records, result.replayed ? { 'idempotent-replayed': 'true' } : undefined);
  },
);
