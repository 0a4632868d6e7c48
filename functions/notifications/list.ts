import { apiHandler } from '#lib/http/handler';
import { notificationList } from '#lib/routes/notifications/list';
import { list } from '#lib/http/response';
import { listNotifications } from '#lib/notifications/service';
import * as access from '#lib/auth/access';

export const handler = apiHandler(
  { ...notificationList, authorize: (caller, site) => access.site.manage(caller, site!.id) },
  async ({ site, caller, query }) => {
    const page = await listNotifications(caller, site, query);
    return list(page.records, query.pageSize, page.nextCursor);
  },
);
