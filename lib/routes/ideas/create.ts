import { siteRuledBody } from '#lib/routes/body';
import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

// Checked in the domain, after access, against the site's limits, extraData rules and tags.
export const createIdeaBody = /* @__PURE__ */ siteRuledBody();

export const ideaCreate = {
  operationId: 'ideaCreate',
  method: 'POST',
  path: '/api/site/{siteId}/idea',
  handler: 'functions/ideas/create',
  dataAccess: 'write',
  params: siteParams,
  body: createIdeaBody,
  tag: 'Ideas',
  summary: 'Create an idea',
  access: 'members and above while `ideas.canAddNewIdeas`; moderators and above always',
  auth: 'required',
  success: { status: 201, schema: 'Idea', location: '/api/site/{siteId}/idea/{ideaId}' },
  errors: [403, 409],
  errorNotes: { 409: 'A tag in `tags` was deleted while the idea was being stored; try again.' },
} satisfies Route;
