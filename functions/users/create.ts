import { apiHandler } from '#lib/http/handler';
import { created } from '#lib/http/response';
import { createUser } from '#lib/users/service';
import { siteParams } from '#schemas/common';
import { createUserBody } from '#schemas/user';

export const handler = apiHandler({ params: siteParams, body: createUserBody }, async ({ site, caller, body }) =>
  created(await createUser(site, caller, body)),
);
