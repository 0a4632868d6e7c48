import { siteRuledBody } from '#lib/routes/body';
import type { Route } from '#lib/routes/route';
import { ideaParams } from '#schemas/idea';

// Checked in the domain, after access, against the site's limits and extraData rules (partial: only the fields sent).
export const updateIdeaBody = /* @__PURE__ */ siteRuledBody();

export const ideaUpdate = {
  operationId: 'ideaUpdate',
  method: 'PUT',
  path: '/api/site/{siteId}/idea/{ideaId}',
  handler: 'functions/ideas/update',
  dataAccess: 'write',
  params: ideaParams,
  body: updateIdeaBody,
  tag: 'Ideas',
  summary: 'Update one idea',
  access: 'moderators and above; the owner while the idea is OPEN and (unless `ideas.canEditAfterFirstLikeOrArg`) before its first vote or argument',
  auth: 'required',
  success: { status: 200, schema: 'Idea' },
  errors: [403, 409],
} satisfies Route;
