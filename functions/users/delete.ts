import { apiHandler } from '#lib/http/handler';
import { userDelete } from '#lib/routes/users/delete';
import { deleted } from '#lib/http/response';
import { deleteUser } from '#lib/users/service';

export const handler = apiHandler(userDelete, async ({ site, caller, params }) => {
  await deleteUser(site, caller, params.userId);
  return deleted(params.userId);
});
