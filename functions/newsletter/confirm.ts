import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { confirmSignup } from '#lib/newsletter/service';
import { siteParams } from '#schemas/common';
import { confirmBody } from '#schemas/newsletter';

export const handler = apiHandler({ params: siteParams, body: confirmBody, rateLimit: 'newsletter-confirm' }, async ({ site, body }) =>
  ok(await confirmSignup(site, body.confirmToken)),
);
