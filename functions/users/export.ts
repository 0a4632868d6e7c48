import { apiHandler } from '#lib/http/handler';
import { userExport } from '#lib/routes/users/export';
import { ok } from '#lib/http/response';
import { exportUserData } from '#lib/privacy/export';

export const handler = apiHandler(userExport, async ({ site, caller, params }) => ok(await exportUserData(site, caller, params.userId)));
