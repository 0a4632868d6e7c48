import { apiHandler } from '#lib/http/handler';
import { userWillAnonymize } from '#lib/routes/users/will-anonymize';
import { ok } from '#lib/http/response';
import { willAnonymize } from '#lib/privacy/anonymize';

export const handler = apiHandler(userWillAnonymize, async ({ site, caller, params }) =>
  ok(await willAnonymize(site, caller, params.userId, 'site')),
);
