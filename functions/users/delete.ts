import { apiHandler } from '#lib/http/handler';
import { deleted } from '#lib/http/response';
import { deleteUser } from '#lib/users/service';
import { userParams } from '#schemas/user';

export const handler = apiHandler({ params: userParams }, async ({ site, caller, params }) => {
  await deleteUser(site, caller, params.userId);
  return deleted(params.userId);
});
