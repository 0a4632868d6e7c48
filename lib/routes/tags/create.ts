import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { createTagBody } from '#schemas/tag';

export const tagCreate = {
  operationId: 'tagCreate',
  method: 'POST',
  path: '/api/site/{siteId}/tag',
  handler: 'functions/tags/create',
  dataAccess: 'write',
  params: siteParams,
  body: createTagBody,
  tag: 'Tags',
  summary: 'Create a tag',
  description: '`name` (1-64 characters) is unique per site and `group`, compared case-insensitively: a duplicate is a 409.',
  access: 'moderators and above',
  auth: 'required',
  success: { status: 201, schema: 'Tag', location: '/api/site/{siteId}/tag/{tagId}' },
  errors: [403, 409],
} satisfies Route;
