import { apiHandler } from '#lib/http/handler';
import { userCreate } from '#lib/routes/users/create';
import { created } from '#lib/http/response';
import { createUser } from '#lib/users/service';

export const handler = apiHandler(userCreate, async ({ site, caller, body }) =>
  created(await createUser(site, caller, body)),
);
