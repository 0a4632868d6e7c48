import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createSignup } from '#lib/newsletter/service';
import { siteParams } from '#schemas/common';
import { createSignupBody } from '#schemas/newsletter';

export const handler = apiHandler({ params: siteParams, body: createSignupBody, rateLimit: 'newsletter-signup' }, async ({ site, caller, body }) =>
  created(await createSignup(caller, site, body)),
);
