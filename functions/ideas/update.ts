import { apiHandler } from '#lib/http/handler';
import { ideaUpdate } from '#lib/routes/ideas/update';
import { ok } from '#lib/http/response';
import { updateIdea } from '#lib/ideas/service';

export const handler = apiHandler(ideaUpdate, async ({ site, caller, params, body }) =>
  ok(await updateIdea(site, caller, params.ideaId, body)),
);
