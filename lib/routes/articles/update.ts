import { siteRuledBody } from '#lib/routes/body';
import type { Route } from '#lib/routes/route';
import { articleParams } from '#schemas/article';

// Checked in the domain, after access, against the site's limits and extraData rules (partial: only the fields sent).
export const updateArticleBody = /* @__PURE__ */ siteRuledBody();

export const articleUpdate = {
  operationId: 'articleUpdate',
  method: 'PUT',
  path: '/api/site/{siteId}/article/{articleId}',
  handler: 'functions/articles/update',
  dataAccess: 'write',
  params: articleParams,
  body: updateArticleBody,
  tag: 'Articles',
  summary: 'Update one article',
  access: 'moderators and above, the owner',
  auth: 'required',
  success: { status: 200, schema: 'Article' },
  errors: [403, 409],
} satisfies Route;
