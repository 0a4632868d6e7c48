import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { willAnonymize } from '#lib/users/anonymize';
import { userParams } from '#schemas/user';

export const handler = apiHandler({ params: userParams }, async ({ site, caller, params }) =>
  ok(await willAnonymize(site, caller, params.userId, 'all')),
);
