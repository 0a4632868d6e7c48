import { apiHandler } from '#lib/http/handler';
import { userWillAnonymizeAll } from '#lib/routes/users/will-anonymize-all';
import { ok } from '#lib/http/response';
import { willAnonymize } from '#lib/privacy/anonymize';

export const handler = apiHandler(userWillAnonymizeAll, async ({ site, caller, params }) =>
  ok(await willAnonymize(site, caller, params.userId, 'all')),
);
