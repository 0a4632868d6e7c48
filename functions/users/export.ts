import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { exportUserData } from '#lib/users/export';
import { userParams } from '#schemas/user';

export const handler = apiHandler({ params: userParams }, async ({ site, caller, params }) => ok(await exportUserData(site, caller, params.userId)));
