import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { confirmBody } from '#schemas/newsletter';

export const newsletterConfirm = {
  operationId: 'newsletterConfirm',
  method: 'POST',
  path: '/api/site/{siteId}/confirm',
  handler: 'functions/newsletter/confirm',
  dataAccess: 'write',
  params: siteParams,
  body: confirmBody,
  rateLimit: 'newsletter-confirm',
  tag: 'Newsletter',
  summary: 'Confirm a newsletter signup',
  description: 'An unknown token is a 404.',
  access: 'everyone',
  auth: 'optional',
  success: { status: 200, description: 'The signup, with `confirmed: true`', schema: 'NewsletterSignup' },
} satisfies Route;
