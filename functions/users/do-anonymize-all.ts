import { apiHandler } from '#lib/http/handler';
import { userDoAnonymizeAll } from '#lib/routes/users/do-anonymize-all';
import { ok } from '#lib/http/response';
import { doAnonymize } from '#lib/privacy/anonymize';

export const handler = apiHandler(userDoAnonymizeAll, async ({ site, caller, params }) =>
  ok(await doAnonymize(site, caller, params.userId, 'all')),
);
