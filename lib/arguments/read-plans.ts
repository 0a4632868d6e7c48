/**
 * What argument routes will need by key, planned from the raw request so it joins the site and caller
 * in the request's one BatchGet (lib/store/prefetch.ts): the idea an argument belongs to and the
 * argument itself (or, for a new reply, its parent). A round trip less; the idea is then read whole
 * (a few KB), where the read on its own asks only for the fields arguments check. A create also
 * reserves its new id beside those reads.
 */
import type { PrefetchRequest } from '#lib/http/handler';
import { keys } from '#lib/store/keys';
import { reserveIdAhead } from '#lib/store/counters';
import type { ReadPlan } from '#lib/store/prefetch';
import { argumentParams, createArgumentBody, ideaArgumentsParams } from '#schemas/argument';

export function argumentCreateReads(request: PrefetchRequest): ReadPlan | undefined {
  // Only a site user may create one: an anonymous request is refused before it reads anything.
  if (request.userId === undefined) return undefined;
  const params = ideaArgumentsParams.safeParse(request.pathParameters);
  if (!params.success) return undefined;
  const { ideaId } = params.data;
  const body = createArgumentBody.safeParse(request.body);
  const parentId = body.data?.parentId;
  return {
    keys: [keys.idea(request.siteId, ideaId), ...(parentId != null ? [keys.argument(request.siteId, ideaId, parentId)] : [])],
    consistent: false,
    // A body that will be stored gets its id in this round trip; one that will be a 400 reserves none.
    newId: body.success ? reserveIdAhead('argument') : undefined,
  };
}

/**
 * Reading, editing or deleting one argument: its idea and itself, for a verified user of the site.
 * Not for an anonymous request: the first read comes before the site's Basic Auth, and a closed site
 * must not answer its 401 sooner or later depending on which ids exist (the red team's finding).
 */
export function argumentReads(request: PrefetchRequest): ReadPlan | undefined {
  if (request.userId === undefined) return undefined;
  const params = argumentParams.safeParse(request.pathParameters);
  if (!params.success) return undefined;
  const { ideaId, argumentId } = params.data;
  return { keys: [keys.idea(request.siteId, ideaId), keys.argument(request.siteId, ideaId, argumentId)], consistent: false };
}
