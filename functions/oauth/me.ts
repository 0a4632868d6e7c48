import { apiHandler } from '#lib/http/handler';
import { oauthMe } from '#lib/routes/oauth/me';
import { ok } from '#lib/http/response';
import { ownRecord } from '#lib/users/service';

export const handler = apiHandler(oauthMe, async ({ site, caller }) => ok(ownRecord(site, caller)));
