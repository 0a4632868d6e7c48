import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { createSignupBody } from '#schemas/newsletter';

export const newsletterSignupCreate = {
  operationId: 'newsletterSignupCreate',
  method: 'POST',
  path: '/api/site/{siteId}/newslettersignup',
  handler: 'functions/newsletter/create',
  dataAccess: 'write',
  params: siteParams,
  body: createSignupBody,
  rateLimit: 'newsletter-signup',
  tag: 'Newsletter',
  summary: 'Sign up for the newsletter',
  access: 'everyone while `newslettersignup.isActive`',
  auth: 'optional',
  success: { status: 201, schema: 'NewsletterSignup' },
  errors: [403, 409],
} satisfies Route;
