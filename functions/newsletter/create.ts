import { apiHandler } from '#lib/http/handler';
import { newsletterSignupCreate } from '#lib/routes/newsletter/create';
import { created } from '#lib/http/response';
import { createSignup } from '#lib/newsletter/service';

export const handler = apiHandler(newsletterSignupCreate, async ({ site, caller, body }) =>
  created(await createSignup(caller, site, body)),
);
