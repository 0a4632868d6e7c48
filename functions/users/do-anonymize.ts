import { apiHandler } from '#lib/http/handler';
import { userDoAnonymize } from '#lib/routes/users/do-anonymize';
import { ok } from '#lib/http/response';
import { doAnonymize } from '#lib/privacy/anonymize';

export const handler = apiHandler(userDoAnonymize, async ({ site, caller, params }) =>
  ok(await doAnonymize(site, caller, params.userId, 'site')),
);
