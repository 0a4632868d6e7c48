import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateIdea } from '#lib/ideas/service';
import { jsonObjectBody } from '#schemas/content-item';
import { ideaParams } from '#schemas/idea';

export const handler = apiHandler({ params: ideaParams, body: jsonObjectBody }, async ({ site, caller, params, body }) =>
  ok(await updateIdea(site, caller, params.ideaId, body)),
);
