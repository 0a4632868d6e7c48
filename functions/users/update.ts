import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { updateUser } from '#lib/users/service';
import { updateUserBody, userParams } from '#schemas/user';

export const handler = apiHandler({ params: userParams, body: updateUserBody }, async ({ site, caller, params, body }) =>
  ok(await updateUser(site, caller, params.userId, body)),
);
