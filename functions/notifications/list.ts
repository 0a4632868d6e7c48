import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listNotifications } from '#lib/notifications/service';
import { siteParams } from '#schemas/common';
import { listNotificationsQuery } from '#schemas/notification';
import * as access from '#lib/auth/access';

export const handler = apiHandler(
  { params: siteParams, query: listNotificationsQuery, authorize: (caller, site) => access.site.manage(caller, site!.id) },
  async ({ site, caller, query }) => {
    const page = await listNotifications(caller, site, query);
    return list(page.records, query.pageSize, page.nextCursor);
  },
);
