import type { Route } from '#lib/routes/route';

export const openapi = {
  operationId: 'openapi',
  method: 'GET',
  path: '/api/openapi.json',
  handler: 'functions/system/openapi',
  dataAccess: 'static',
  tag: 'System',
  summary: 'This OpenAPI document',
  access: 'everyone',
  auth: 'none',
  cache: 'public',
  success: { status: 200, schema: 'OpenApiDocument' },
} satisfies Route;
