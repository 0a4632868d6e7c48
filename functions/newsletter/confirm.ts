import { apiHandler } from '#lib/http/handler';
import { newsletterConfirm } from '#lib/routes/newsletter/confirm';
import { ok } from '#lib/http/response';
import { confirmSignup } from '#lib/newsletter/service';

export const handler = apiHandler(newsletterConfirm, async ({ site, body }) =>
  ok(await confirmSignup(site, body.confirmToken)),
);
