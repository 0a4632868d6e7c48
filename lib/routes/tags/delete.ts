import type { Route } from '#lib/routes/route';
import { tagParams } from '#schemas/tag';

export const tagDelete = {
  operationId: 'tagDelete',
  method: 'DELETE',
  path: '/api/site/{siteId}/tag/{tagId}',
  handler: 'functions/tags/delete',
  dataAccess: 'write',
  params: tagParams,
  tag: 'Tags',
  summary: 'Delete a tag and remove it from every idea',
  description: 'A retried DELETE after a failure finishes the job.',
  access: 'moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'Deleted' },
  errors: [403, 409],
} satisfies Route;
