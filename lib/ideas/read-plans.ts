/**
 * What idea reads will need by key, planned from the raw request so it joins the site and caller in
 * the request's one BatchGet (lib/store/prefetch.ts): the caller's ballot for `includeUserVote`; for
 * one idea, the idea and its tally too. A new idea's plan is lib/ideas/create-plan.ts.
 */
import type { PrefetchRequest } from '#lib/http/handler';
import type { ReadPlan } from '#lib/store/prefetch';
import { ballotPlan, ideaPlan } from '#lib/store/request-reads';
import { ideaIncludeQuery, ideaParams } from '#schemas/idea';

const wantsUserVote = (request: PrefetchRequest) =>
  request.userId !== undefined && ideaIncludeQuery.safeParse(request.query).data?.includeUserVote === true;

/** An idea list page: the caller's ballot when the page shows their votes. */
export const ideaListReads = (request: PrefetchRequest): ReadPlan | undefined =>
  wantsUserVote(request) ? ballotPlan(request.siteId, request.userId!) : undefined;

/** One idea: the idea, its tally, and the caller's ballot when asked for. */
export function ideaReads(request: PrefetchRequest): ReadPlan | undefined {
  const params = ideaParams.safeParse(request.pathParameters);
  if (!params.success) return undefined;
  const idea = ideaPlan(request.siteId, params.data.ideaId);
  if (!wantsUserVote(request)) return idea;
  return { keys: [...idea.keys, ...ballotPlan(request.siteId, request.userId!).keys], consistent: false };
}
