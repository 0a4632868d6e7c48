import { apiHandler } from '#lib/http/handler';
import { userGet } from '#lib/routes/users/get';
import { ok } from '#lib/http/response';
import { getUserRecord } from '#lib/users/service';

export const handler = apiHandler(userGet, async ({ site, caller, params }) =>
  ok(await getUserRecord(site, caller, params.userId)),
);
