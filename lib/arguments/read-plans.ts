/**
 * What argument routes will need by key, planned from the route's validated input so it joins the site
 * and caller in the request's one BatchGet (lib/request/setup.ts): the idea an argument belongs to and
 * the argument itself (or, for a new reply, its parent), each the `.plan` of the store read the argument
 * service makes. A round trip less; the idea is then read whole (a few KB), where the read on its own
 * asks only for the fields arguments check.
 *
 * Only for a verified user of the site: the first read comes before the site's Basic Auth, and a closed
 * site must not answer its 401 sooner or later depending on which ids exist.
 */
import { getArgument, getIdeaRef } from '#lib/store/arguments/arguments';
import { joinPlans, type ReadPlan } from '#lib/store/db/prefetch';
import type { ArgumentParams, CreateArgumentBody, IdeaArgumentsParams } from '#schemas/argument';

interface ArgumentReadInput<P> {
  siteId: number;
  userId: number | undefined;
  params: P;
}

export function argumentCreateReads({ siteId, userId, params, body }: ArgumentReadInput<IdeaArgumentsParams> & { body: CreateArgumentBody | undefined }): ReadPlan | undefined {
  // Only a site user may create one: an anonymous request is refused before it reads anything.
  if (userId === undefined) return undefined;
  const parentId = body?.parentId;
  return joinPlans(getIdeaRef.plan(siteId, params.ideaId), parentId != null ? getArgument.plan(siteId, params.ideaId, parentId) : undefined);
}

/** Reading, editing or deleting one argument: its idea and itself. */
export function argumentReads({ siteId, userId, params }: ArgumentReadInput<ArgumentParams>): ReadPlan | undefined {
  if (userId === undefined) return undefined;
  return joinPlans(getIdeaRef.plan(siteId, params.ideaId), getArgument.plan(siteId, params.ideaId, params.argumentId));
}
