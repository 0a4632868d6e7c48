import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { getUserRecord } from '#lib/users/service';
import { userParams } from '#schemas/user';

export const handler = apiHandler({ params: userParams }, async ({ site, caller, params }) =>
  ok(await getUserRecord(site, caller, params.userId)),
);
