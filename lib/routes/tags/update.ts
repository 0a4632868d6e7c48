import type { Route } from '#lib/routes/route';
import { tagParams, updateTagBody } from '#schemas/tag';

export const tagUpdate = {
  operationId: 'tagUpdate',
  method: 'PUT',
  path: '/api/site/{siteId}/tag/{tagId}',
  handler: 'functions/tags/update',
  dataAccess: 'write',
  params: tagParams,
  body: updateTagBody,
  tag: 'Tags',
  summary: 'Rename a tag or change its group',
  description: 'Partial. A name already taken in the group is a 409.',
  access: 'moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'Tag' },
  errors: [403, 409],
} satisfies Route;
