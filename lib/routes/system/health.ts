import type { Route } from '#lib/routes/route';

export const health = {
  operationId: 'health',
  method: 'GET',
  path: '/api/health',
  handler: 'functions/system/health',
  dataAccess: 'probe',
  tag: 'System',
  summary: 'Is the API up and its database reachable?',
  access: 'everyone',
  auth: 'none',
  success: { status: 200, schema: 'Health' },
  errors: [503],
} satisfies Route;
