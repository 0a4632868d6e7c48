import { apiHandler } from '#lib/http/handler';
import { voteReview } from '#lib/routes/votes/review';
import { ok } from '#lib/http/response';
import { reviewVote } from '#lib/votes/review';

export const handler = apiHandler(voteReview, async ({ site, caller, params, body }) =>
  ok(await reviewVote({ site, caller, voteId: params.voteId, rejected: body?.rejected })),
);
