import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { castVotes } from '#lib/votes/cast';
import { idempotencyKeyOf } from '#lib/votes/idempotency';
import { siteParams } from '#schemas/common';
import { castVotesBody } from '#schemas/votes';

/** The body is taken as it comes: validateVoteRoundBody reports `[i].ideaId` style paths. */
export const handler = apiHandler({ params: siteParams, body: castVotesBody }, async ({ site, caller, body, headers }) => {
  const result = await castVotes({ site, caller, body, idempotencyKey: idempotencyKeyOf(headers) });
  return ok(result.records, result.replayed ? { 'idempotent-replayed': 'true' } : undefined);
});
