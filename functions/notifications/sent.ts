import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { markSent } from '#lib/notifications/service';
import { notificationParams } from '#schemas/notification';

export const handler = apiHandler({ params: notificationParams }, async ({ site, caller, params }) =>
  ok(await markSent(caller, site, params.notificationId)),
);
