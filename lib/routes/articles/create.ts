import { siteRuledBody } from '#lib/routes/body';
import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';

// Checked in the domain, after access, against the site's limits and extraData rules.
export const createArticleBody = /* @__PURE__ */ siteRuledBody();

export const articleCreate = {
  operationId: 'articleCreate',
  method: 'POST',
  path: '/api/site/{siteId}/article',
  handler: 'functions/articles/create',
  dataAccess: 'write',
  params: siteParams,
  body: createArticleBody,
  tag: 'Articles',
  summary: 'Create an article',
  access: 'moderators and above while `articles.canAddNewArticles`; editors and above always',
  auth: 'required',
  success: { status: 201, schema: 'Article', location: '/api/site/{siteId}/article/{articleId}' },
  errors: [403],
} satisfies Route;
