import { apiHandler } from '#lib/http/handler';
import { userUpdate } from '#lib/routes/users/update';
import { ok } from '#lib/http/response';
import { updateUser } from '#lib/users/service';

export const handler = apiHandler(userUpdate, async ({ site, caller, params, body }) =>
  ok(await updateUser(site, caller, params.userId, body)),
);
