import { apiHandler } from '#lib/http/handler';
import { notificationSent } from '#lib/routes/notifications/sent';
import { ok } from '#lib/http/response';
import { markSent } from '#lib/notifications/service';

export const handler = apiHandler(notificationSent, async ({ site, caller, params }) =>
  ok(await markSent(caller, site, params.notificationId)),
);
