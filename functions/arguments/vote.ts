import { apiHandler } from '#lib/http/handler';
import { argumentVote } from '#lib/routes/arguments/vote';
import { ok } from '#lib/http/response';
import { toggleArgumentVote } from '#lib/arguments/service';

// No body schema: the toggle needs none (CONTRACT), and any body sent is ignored.
export const handler = apiHandler(argumentVote, async ({ site, caller, params }) =>
  ok(await toggleArgumentVote(site, caller, params.ideaId, params.argumentId)),
);
