import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { toggleArgumentVote } from '#lib/arguments/service';
import { argumentParams } from '#schemas/argument';

// No body schema: the toggle needs none (CONTRACT), and any body sent is ignored.
export const handler = apiHandler({ params: argumentParams }, async ({ site, caller, params }) =>
  ok(await toggleArgumentVote(site, caller, params.ideaId, params.argumentId)),
);
