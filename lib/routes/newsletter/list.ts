import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { listSignupsQuery } from '#schemas/newsletter';

export const newsletterSignupList = {
  operationId: 'newsletterSignupList',
  method: 'GET',
  path: '/api/site/{siteId}/newslettersignup',
  handler: 'functions/newsletter/list',
  dataAccess: 'read',
  params: siteParams,
  query: listSignupsQuery,
  tag: 'Newsletter',
  summary: 'List the newsletter signups of a site',
  access: 'moderators and above',
  auth: 'required',
  success: { status: 200, schema: 'NewsletterSignupList' },
  errors: [403],
} satisfies Route;
