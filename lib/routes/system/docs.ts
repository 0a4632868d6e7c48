import type { Route } from '#lib/routes/route';

export const docs = {
  operationId: 'docs',
  method: 'GET',
  path: '/api/docs',
  handler: 'functions/system/docs',
  dataAccess: 'static',
  tag: 'System',
  summary: 'A readable page of this document',
  access: 'everyone',
  auth: 'none',
  cache: 'public',
  success: { status: 200, schema: 'Html' },
} satisfies Route;
